"""WebSocket routes of the notifications app."""

from __future__ import annotations

from django.urls import path

from notifications.consumers import WaitingGamesConsumer

websocket_urlpatterns = [
    path("ws/me/", WaitingGamesConsumer.as_asgi()),
]
