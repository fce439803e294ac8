"""``/healthz``: does each part the site needs answer right now?

Load balancers and the stack test read it. Each check is short and independent, so one dead
part is named instead of hiding the others, and the status is 503 whenever any is down.

Everyone sees whether each part is up. Only staff see the details (versions, worker host
names, errors, the last beat heartbeat): they tell an attacker what software runs where.
Staff also see ``warnings``: things that work but are likely misconfigured (nearly every
request from one client address, remi_site/address_watch.py). A warning never makes the
answer 503; the load balancer would take a working site out of service for it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from remi_site import address_watch
from remi_site.celery import app as celery_app
from remi_site.tasks import HEARTBEAT_CACHE_KEY

logger = logging.getLogger(__name__)

Check = Callable[[], dict[str, Any]]


def check_database() -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"vendor": connection.vendor}


def check_redis() -> dict[str, Any]:
    """Ping each Redis the uses name (one server, or up to three when each use has its own)."""
    versions: dict[str, str | None] = {}
    for url in dict.fromkeys(settings.REDIS_USE_URLS.values()):
        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
            versions[url] = client.info("server").get("redis_version")
        finally:
            client.close()
    return {"version": next(iter(versions.values()))}


def check_celery() -> dict[str, Any]:
    # A broadcast ping through the broker; limit=1 returns as soon as one worker answers.
    replies = celery_app.control.ping(timeout=settings.HEALTHZ_CELERY_TIMEOUT, limit=1)
    if not replies:
        raise RuntimeError("no Celery worker answered a ping")
    workers = sorted(name for reply in replies for name in reply)
    return {"workers": workers, "last_beat_heartbeat": cache.get(HEARTBEAT_CACHE_KEY)}


CHECKS: dict[str, Check] = {
    "database": check_database,
    "redis": check_redis,
    "celery": check_celery,
}


def run_checks(names: Iterable[str] | None = None) -> tuple[bool, dict[str, dict[str, Any]]]:
    """Run the checks called ``names`` (all of them by default), each on its own."""
    results: dict[str, dict[str, Any]] = {}
    for name in CHECKS if names is None else names:
        check = CHECKS[name]
        try:
            results[name] = {"ok": True, **check()}
        except Exception as error:  # a health check reports every failure, whatever its kind
            logger.warning("health check %s failed: %s", name, error)
            results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    return all(result["ok"] for result in results.values()), results


def public_view(results: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: {"ok": result["ok"]} for name, result in results.items()}


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, results = run_checks()
    down = [name for name, result in results.items() if not result["ok"]]
    staff = request.user.is_staff
    checks = results if staff else public_view(results)
    body: dict[str, Any] = {"status": "ok" if healthy else "down", "down": down, "checks": checks}
    if staff:
        body["warnings"] = staff_warnings()
    return JsonResponse(body, status=200 if healthy else 503)


def staff_warnings() -> list[dict[str, Any]]:
    try:
        return address_watch.staff_warnings()
    except redis.RedisError:
        return []  # Redis is down: the redis check says so already
