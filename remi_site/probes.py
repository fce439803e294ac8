"""``/livez`` and ``/readyz``: the two questions an orchestrator and a proxy ask.

``/livez``: does this process answer at all?  It touches nothing (no database, no Redis, no
session), so a supervisor restarts a process only when the process itself is stuck, never
because a shared part is down (restarting every web process would not bring Redis back).

``/readyz``: can this process serve a page right now?  The database and Redis must answer; a
Celery worker need not (pages and moves work without one; only deadlines and bots wait), so
one dead worker never takes the web processes out of the proxy's rotation.  ``/healthz``
(remi_site/health.py) stays the full answer for people, workers and beat included.

Both are answered by a middleware placed first: before the HTTPS redirect (probes come over
plain HTTP from inside), the host check (a probe may address the process by its IP), the
session and the address watch (each would touch Redis).  The answer names only which parts are
down, never an error or a host: anyone who can reach the process may ask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.http import HttpRequest, HttpResponse, JsonResponse

from remi_site import health

LIVEZ_PATH = "/livez"
READYZ_PATH = "/readyz"

# What a process needs to serve a page; the worker is left out on purpose (docstring).
READINESS_CHECKS = ("database", "redis")


def livez() -> JsonResponse:
    return _no_store(JsonResponse({"status": "ok"}))


def readyz() -> JsonResponse:
    _healthy, results = health.run_checks(READINESS_CHECKS)
    down = [name for name, result in results.items() if not result["ok"]]
    body = {"status": "down" if down else "ok", "down": down}
    return _no_store(JsonResponse(body, status=503 if down else 200))


_Response = TypeVar("_Response", bound=HttpResponse)


def _no_store(response: _Response) -> _Response:
    response["Cache-Control"] = "no-store"
    return response


PROBES: dict[str, Callable[[], JsonResponse]] = {LIVEZ_PATH: livez, READYZ_PATH: readyz}


def probe_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info)
        if probe is None:
            return get_response(request)
        if request.method not in {"GET", "HEAD"}:
            return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
        return probe()

    return middleware
