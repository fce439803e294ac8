"""The cache: Django's Redis cache, with one client (and so one connection pool) per process.

Under ASGI, Django's cache handler is context-local: each request and each socket's call into
Django gets a fresh cache object, and each object built its own redis-py pool.  So every one of
them that touched the cache opened a new connection to Redis (a TCP handshake and redis-py's
driver-info lookup each time: 3 % of a live daphne's CPU in bench/live.py's profile, one per
move).  Here the objects of one process share the client made for the same servers and options.
"""

from __future__ import annotations

import threading
from typing import Any

import redis as redis_py
from django.core.cache.backends import redis
from django.utils.functional import cached_property

_clients: dict[tuple[Any, ...], redis.RedisCacheClient] = {}
_made = threading.Lock()


class RedisCache(redis.RedisCache):
    # Set by Django's __init__; private, so django-stubs leaves them out
    # (tests/site/test_private_apis.py checks they are still there).
    _class: type[redis.RedisCacheClient]
    _servers: list[str]
    _options: dict[str, Any]

    @cached_property
    def _cache(self) -> redis.RedisCacheClient:
        key = (self._class, tuple(self._servers), repr(sorted(self._options.items())))
        with _made:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]


def cache_redis() -> redis_py.Redis:
    """The cache's own redis-py client, on the process's shared pool, for counts that Django's
    cache API cannot keep atomically (a script, a hash, several commands in one round trip).
    Keys made with ``cache.make_key`` stay in the cache's namespace and go with ``cache.clear()``.
    """
    from django.core.cache import DEFAULT_CACHE_ALIAS, caches

    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        raise TypeError(f"the cache is a {type(backend).__name__}, not remi_site's RedisCache")
    return backend._cache.get_client(write=True)
