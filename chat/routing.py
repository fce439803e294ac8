"""WebSocket routes of the chat app."""

from __future__ import annotations

from django.urls import path

from chat.consumers import ChatConsumer
from games import converters  # noqa: F401  (registers <id:>)

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/chat/", ChatConsumer.as_asgi()),
]
