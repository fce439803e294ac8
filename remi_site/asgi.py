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

# A move makes a great many short-lived objects; with the default first threshold (700) the
# collector ran several times per move, and its older passes scanned the kept renders each
# time.  A first generation of 50,000 cut a daphne's CPU per move by a tenth and halved the
# p99 (bench/artefacts/issue-28/README.md), but each of its passes then held the process for
# 70-120 ms on a slow machine (BENCH_GC_LOG): 10,000 keeps the CPU (40.8 against 41.3 ms per
# move) with 12 ms passes, and the older generations' later thresholds keep their long
# passes (300-450 ms, every socket of the process waits) as rare as before.
GC_THRESHOLDS = (10_000, 50, 20)
gc.set_threshold(*GC_THRESHOLDS)
