"""WebSocket routes of the tournaments app."""

from __future__ import annotations

from django.urls import path

from games import converters  # noqa: F401  (registers <id:>)
from tournaments.consumers import tournament_socket

websocket_urlpatterns = [
    path("ws/tournaments/<id:tournament_id>/", tournament_socket),
]
