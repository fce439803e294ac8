"""WebSocket routes of the games app."""

from __future__ import annotations

from django.urls import path

from games import converters  # noqa: F401  (registers <id:>)
from games.play.consumers import GameConsumer
from games.tables.lobby_consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
]
