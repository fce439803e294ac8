"""The site's ASGI application plus the floor bench/live.py measures against.

``/ws/floor/<group>/`` is the least a live move can cost on this stack: a bare consumer that
joins a group on the same channel layer and, for each text frame it receives, ``group_send``s
it to the group; every member sends it on as it came.  No database, no session, no rendering.
Everything else goes to ``remi_site.asgi.application`` unchanged, so the same daphne
processes serve both and the two are measured side by side.  Only the bench starts it.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from remi_site.asgi import application as site


class FloorConsumer(AsyncWebsocketConsumer):
    group: str = ""

    async def connect(self) -> None:
        self.group = "floor-" + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data:
            await self.channel_layer.group_send(
                self.group, {"type": "floor.frame", "text": text_data[:200]}
            )

    async def floor_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


floor = URLRouter([path("ws/floor/<slug:group>/", FloorConsumer.as_asgi())])


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/floor/"):
        return await floor(scope, receive, send)
    return await site(scope, receive, send)
