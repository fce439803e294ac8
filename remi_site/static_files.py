"""WhiteNoise, able to run on the event loop.

WhiteNoise's middleware is sync only, and near the top of the chain: under daphne it made
Django run every request's outer middleware in a thread and hop back to the event loop for
the rest (issue 28's note: a daphne stopped with a request in flight never exited, its thread
waiting on the stopped loop).  Here a static file is still served by WhiteNoise's own lookup
and response; anything else goes on down the chain without leaving the loop.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(get_response, *args, **kwargs)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._call_async(request)
        return super().__call__(request)

    async def _call_async(self, request: HttpRequest) -> HttpResponse:
        if self.autorefresh:
            # Development only (DEBUG): the lookup reads the disk, so not on the loop.
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(
                request.path_info
            )
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            served: HttpResponse = self.serve(static_file, request)
            return served
        response: HttpResponse = await self.get_response(request)
        return response
