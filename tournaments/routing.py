"""WebSocket routes of the tournaments app."""

from __future__ import annotations

from django.urls import path

from games import converters  # noqa: F401  (registers <id:>)
from tournaments.consumers import tournament_socket

websocket_urlpatterns = [
    # django-stubs types a route's target as a view; Channels routes to ASGI apps with the
    # same path() (its URLRouter reads the pattern only).
    path("ws/tournaments/<id:tournament_id>/", tournament_socket),  # type: ignore[arg-type]
]
