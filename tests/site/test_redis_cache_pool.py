"""The cache objects of one process share one Redis client, so one pool of connections.

Under ASGI each request context gets a fresh cache object from Django; with Django's own
backend each such object opened its own connection to Redis (one per live move, in the
bench's profile).  Twenty cache objects made as twenty contexts would make them, each used
once and kept alive: the site's backend adds at most one connection to Redis, Django's own
adds twenty."""

from __future__ import annotations

import contextvars
import gc
from collections.abc import Iterator

import pytest
import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache as DjangosRedisCache

OBJECTS = 20


@pytest.fixture
def probe() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])
    yield client
    client.close()


def cache_connections(probe: redis.Redis) -> int:
    # Connections an earlier test dropped close when collected: not in the middle of a count.
    gc.collect()
    db = probe.connection_pool.connection_kwargs.get("db", 0)
    return sum(1 for client in probe.client_list() if int(client["db"]) == db)


def fresh_cache_object(backend: type | None = None):
    """What Django's cache handler makes for a new context."""
    if backend is None:
        return contextvars.copy_context().run(caches.create_connection, "default")
    config = settings.CACHES["default"]
    return backend(config["LOCATION"], {k: v for k, v in config.items() if k != "BACKEND"})


def used(objects: list) -> list:
    for n, cache in enumerate(objects):
        cache.set(f"pool-test-{n}", n)
        assert cache.get(f"pool-test-{n}") == n
    return objects


def test_cache_objects_of_one_process_share_one_client():
    first, second = fresh_cache_object(), fresh_cache_object()
    assert first is not second
    assert first._cache is second._cache


def test_twenty_cache_objects_add_at_most_one_connection(probe):
    before = cache_connections(probe)
    kept = used([fresh_cache_object() for _ in range(OBJECTS)])
    assert cache_connections(probe) - before <= 1
    assert len(kept) == OBJECTS


def test_djangos_own_backend_adds_one_per_object(probe):
    before = cache_connections(probe)
    kept = used([fresh_cache_object(DjangosRedisCache) for _ in range(OBJECTS)])
    assert cache_connections(probe) - before >= OBJECTS
    for cache in kept:
        cache._cache.get_client().connection_pool.disconnect()
