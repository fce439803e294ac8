"""Prometheus metrics of one site process, at ``/metrics`` when ``METRICS_TOKEN`` is set.

Off unless configured, and never public: the endpoint answers 404 without the token (as a
bearer token) and the nginx configuration in deploy/ refuses the path from outside.  Each
daphne process keeps its own counters (Prometheus sums them): scrape every process on its own
port, not through the proxy, which would hand each scrape to any one of them.

Counted as it happens: requests by status, moves by game (``move_committed``, called where a
move is committed, games/play/services.py), the time from a move's commit to each other seat's
socket sending it (``move_reached_seat``, games/play/consumers.py) and open sockets by kind
(remi_site/socket_limits.py).
Read at each scrape: the Celery queue's depth in the broker and the age of the oldest due
deadline that no one has answered yet (the sweep's lag, 0 when none is late).
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Iterator

import redis
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import REGISTRY, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MOVES = Counter("remi_moves", "Moves committed, by game type.", ["game"])
REQUESTS = Counter("remi_http_requests", "HTTP answers, by status.", ["status"])
OPEN_SOCKETS = Gauge("remi_open_sockets", "WebSockets open in this process, by kind.", ["kind"])
# From a move's commit to each other seat's socket sending it (lichess watches the same): the
# latency players feel, measured where it ends.  Live play sits in the first buckets.
MOVE_REACHED = Histogram(
    "remi_move_to_seat_seconds",
    "Seconds from a move's commit to each other seat's socket sending it.",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

# The queue Celery's workers read (the default queue: the site names no other).
CELERY_QUEUE = "celery"


def move_committed(game_type: str) -> None:
    MOVES.labels(game=game_type).inc()


def move_reached_seat(committed_at: object) -> None:
    """A seat's socket sent a move committed at ``committed_at`` (``time.time()`` where it
    was committed, carried in the game's news); anything else is no moment and not counted."""
    if isinstance(committed_at, float):
        MOVE_REACHED.observe(max(0.0, time.time() - committed_at))


def request_answered(status: int) -> None:
    REQUESTS.labels(status=str(status)).inc()


def socket_kind(path: str) -> str:
    if path.startswith("/ws/games/"):
        return "chat" if path.rstrip("/").endswith("/chat") else "game"
    if path.startswith("/ws/lobby/"):
        return "lobby"
    return "other"


class ScrapeTimeCollector(Collector):
    def families(self) -> tuple[GaugeMetricFamily, GaugeMetricFamily]:
        return (
            GaugeMetricFamily(
                "remi_celery_queue_depth", "Tasks waiting in the Celery queue (-1: broker down)."
            ),
            GaugeMetricFamily(
                "remi_oldest_due_deadline_age_seconds",
                "How long the oldest due, unanswered deadline has been due (0: none).",
            ),
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        # Names only: registering must not query (the module loads before the database).
        yield from self.families()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth, lag = self.families()
        depth.add_metric([], queue_depth())
        lag.add_metric([], oldest_due_deadline_age())
        yield depth
        yield lag


def queue_depth() -> int:
    client = redis.Redis.from_url(
        settings.REDIS_USE_URLS["celery"], socket_timeout=2, socket_connect_timeout=2
    )
    try:
        return int(client.llen(CELERY_QUEUE))
    except redis.RedisError:
        return -1
    finally:
        client.close()


def oldest_due_deadline_age() -> float:
    from django.db.models import Min

    from games.models import SeatClock

    now = timezone.now()
    oldest = SeatClock.objects.filter(
        ended_at__isnull=True, due_at__isnull=False, due_at__lte=now
    ).aggregate(oldest=Min("due_at"))["oldest"]
    return 0.0 if oldest is None else (now - oldest).total_seconds()


REGISTRY.register(ScrapeTimeCollector())


@never_cache
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    if not token or not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        raise Http404  # not "forbidden": a stranger learns nothing of the endpoint
    return HttpResponse(generate_latest(REGISTRY), content_type="text/plain; version=0.0.4")
