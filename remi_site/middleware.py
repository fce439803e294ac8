"""Site-wide request guards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

# No page of the site needs a longer address; browsers and proxies commonly stop near 8 KB.
MAX_URL_LENGTH = 4096


@sync_and_async_middleware
def overlong_url_middleware(
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    """Answer 414 to an overlong address before any view sees it.

    Otherwise a login-only page sends the visitor to the login page carrying the whole address
    in ``next``, Django refuses to build such a redirect, and every probe logs a traceback.
    """
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            response: HttpResponse = _too_long(request) or await get_response(request)
            return response

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        response: HttpResponse = _too_long(request) or get_response(request)
        return response

    return middleware


def _too_long(request: HttpRequest) -> HttpResponse | None:
    if len(request.get_full_path()) <= MAX_URL_LENGTH:
        return None
    return HttpResponse(
        "This address is too long. Go back to the page you came from and try again.",
        status=414,
        content_type="text/plain; charset=utf-8",
    )
