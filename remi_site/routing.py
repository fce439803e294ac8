"""WebSocket URL routes; apps add theirs to this list."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from chat.routing import websocket_urlpatterns as chat_websockets
from games.routing import websocket_urlpatterns as games_websockets
from notifications.routing import websocket_urlpatterns as notifications_websockets
from remi_site.consumers import PingConsumer, refuse_unknown_path
from tournaments.routing import websocket_urlpatterns as tournaments_websockets

websocket_urlpatterns: list[URLPattern] = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *games_websockets,
    *chat_websockets,
    *notifications_websockets,
    *tournaments_websockets,
    # Last: whatever the routes above do not match is refused without an error.
    # (An ASGI app, not a view: see tournaments/routing.py.)
    re_path(r"", refuse_unknown_path),  # type: ignore[arg-type]
]
