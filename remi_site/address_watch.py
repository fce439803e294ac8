"""A warning when nearly every request comes from one client address.

That is the sign of a reverse proxy whose clients' addresses are not passed on (daphne run
without ``--proxy-headers``): every visitor then has the proxy's address, and the limits kept
per address (failed logins, sign-ups, the login form's flood guard) are shared by the whole
site. Nothing else would say so until players complain that they cannot log in.

Each request that reaches Django (not ``/healthz``, which load balancers probe from a few
addresses of their own) adds one to its address's count and to the total in the current
minute's Redis hash, and reads the other minutes of the last ten: one round trip, a few
counters per address and minute, gone after ten minutes. When the request's own address
holds ``SINGLE_ADDRESS_WARNING_PERCENT`` of at least ``SINGLE_ADDRESS_WARNING_MIN_REQUESTS``
requests, the first process to notice logs a WARNING, once per ten minutes for the whole
site, and notes the address; ``/healthz`` shows staff the warning while the share still holds.
Off with ``DEBUG``: a development site is all one address.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from accounts.login_limits import client_address
from remi_site.redis_cache import cache_redis

logger = logging.getLogger(__name__)

WINDOW_SECONDS = 600
BUCKET_SECONDS = 60
BUCKETS = WINDOW_SECONDS // BUCKET_SECONDS
TOTAL = "*"  # the hash field that counts every address; no address is spelt so
NO_ADDRESS = "none"
SUSPECT_KEY = "address-watch:suspect"
UNWATCHED_PATHS = frozenset({"/healthz"})


@dataclass(frozen=True)
class Share:
    address: str
    requests: int  # from the address in the window
    total: int  # from everyone in the window

    @property
    def percent(self) -> int:
        return self.requests * 100 // self.total if self.total else 0

    @property
    def too_large(self) -> bool:
        return (
            self.total >= settings.SINGLE_ADDRESS_WARNING_MIN_REQUESTS
            and self.requests * 100 >= settings.SINGLE_ADDRESS_WARNING_PERCENT * self.total
        )


def _bucket_keys(now: float) -> list[str]:
    newest = int(now // BUCKET_SECONDS)
    return [cache.make_key(f"address-watch:{newest - age}") for age in range(BUCKETS)]


def _share(address: str, counts: list[list[Any]]) -> Share:
    return Share(
        address,
        sum(int(mine or 0) for mine, _total in counts),
        sum(int(total or 0) for _mine, total in counts),
    )


def note(address: str, now: float | None = None) -> Share:
    """Count one request from ``address`` and return its share of the window's requests."""
    now = time.time() if now is None else now
    newest, *older = _bucket_keys(now)
    pipe = cache_redis().pipeline(transaction=False)
    pipe.hincrby(newest, address, 1)
    pipe.hincrby(newest, TOTAL, 1)
    pipe.expire(newest, WINDOW_SECONDS + BUCKET_SECONDS)
    for key in older:
        pipe.hmget(key, address, TOTAL)
    mine, total, _expiry, *counts = pipe.execute()
    return _share(address, [[mine, total], *counts])


def share_of(address: str, now: float | None = None) -> Share:
    """``address``'s share of the window's requests, counting nothing."""
    now = time.time() if now is None else now
    pipe = cache_redis().pipeline(transaction=False)
    for key in _bucket_keys(now):
        pipe.hmget(key, address, TOTAL)
    return _share(address, pipe.execute())


def warn(share: Share, now: float) -> None:
    # add() succeeds in one process only, once per window: one line per ten minutes at most.
    window = int(now // WINDOW_SECONDS)
    if not cache.add(f"address-watch:warned:{window}", True, timeout=2 * WINDOW_SECONDS):
        return
    cache.set(SUSPECT_KEY, share.address, timeout=None)
    logger.warning(
        "%d%% of the last %d requests (%d minutes) came from one client address, %s. If the "
        "site runs behind a reverse proxy, the proxy does not pass on its clients' addresses "
        "(run daphne with --proxy-headers, docs/operations.md: Production): every visitor "
        "then shares the per-address limits, failed logins included.",
        share.percent,
        share.total,
        WINDOW_SECONDS // 60,
        share.address,
    )


def request_address(request: HttpRequest) -> str:
    try:
        return client_address(request)
    except PermissionDenied:
        return NO_ADDRESS


def single_address_watch_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        if settings.SINGLE_ADDRESS_WARNING and request.path_info not in UNWATCHED_PATHS:
            now = time.time()
            try:
                share = note(request_address(request), now)
                if share.too_large:
                    warn(share, now)
            except redis.RedisError as error:
                # Advice only: a request must not fail for it (/healthz names Redis if down).
                logger.debug("address watch skipped: %s", error)
        return get_response(request)

    return middleware


def staff_warnings() -> list[dict[str, Any]]:
    """What ``/healthz`` shows staff: the warning, while the noted address still holds the
    share that raised it."""
    if not settings.SINGLE_ADDRESS_WARNING:
        return []
    address = cache.get(SUSPECT_KEY)
    if not address:
        return []
    share = share_of(address)
    if not share.too_large:
        return []
    return [
        {
            "code": "single_client_address",
            "address": share.address,
            "requests": share.requests,
            "of": share.total,
            "minutes": WINDOW_SECONDS // 60,
            "message": (
                f"{share.percent}% of the last {share.total} requests came from {share.address}: "
                "a reverse proxy that does not pass on its clients' addresses? Run daphne with "
                "--proxy-headers; until then everyone shares the per-address login limits."
            ),
        }
    ]
