"""ASGI entry point: HTTP goes to Django, WebSocket to the channels consumers."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from remi_site.routing import websocket_urlpatterns  # noqa: E402
from remi_site.socket_limits import SocketLimits  # noqa: E402
from remi_site.websocket_origin import SameOriginValidator  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The origin check stops other sites' pages (any other scheme, host or port) from
        # opening sockets with our cookies; then no client holds more than its share of the
        # process's sockets, counted before anything reads the session or the database.
        "websocket": SameOriginValidator(
            SocketLimits(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# What is loaded by now (Django, the apps, their modules and URL patterns) lives as long as the
# process.  Frozen, it is left out of the collector's full passes, which otherwise scan all of
# it again each time: under load those passes held a daphne for 0.26-0.42 s each, and
# 0.13-0.17 s after freezing (bench/artefacts/live-at-scale.md, ninth round).
gc.freeze()
