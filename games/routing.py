"""WebSocket routes of the games app."""

from __future__ import annotations

from django.urls import path

from games.consumers import GameConsumer
from games.lobby_consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
]
