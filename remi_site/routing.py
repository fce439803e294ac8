"""WebSocket URL routes; apps add theirs to this list."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.routing import websocket_urlpatterns as games_websockets
from remi_site.consumers import PingConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *games_websockets,
]
