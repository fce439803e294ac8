"""Three uses of Redis: each use's connection URL, its own or derived from ``REDIS_URL``.

The channel layer, the cache and the Celery broker each get their own database number, counted
from the one in ``REDIS_URL`` (``redis://host:6379/4`` gives 4, 5 and 6). Separate databases
mean a ``FLUSHDB`` of the cache (tests do one per test) can never drop queued Celery messages
or channel-layer groups, and an operator can inspect each use on its own.

Each use may instead be given a URL of its own (``CHANNEL_REDIS_URL``, ``CACHE_REDIS_URL``,
``BROKER_URL``), taken as it is, database number included: a managed Redis or a cluster that
offers only database 0, or one server per use.  A use without its own URL falls back to the
derived one, so ``REDIS_URL`` alone works as before.

Both TCP (``redis://``, ``rediss://``) and unix-socket (``unix:///path.sock``) URLs work, so
the embedded development server and an external one differ only in the URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.core.exceptions import ImproperlyConfigured

# Redis ships with 16 databases (0-15) unless its configuration says otherwise.
DATABASE_COUNT = 16


class Use(IntEnum):
    """Offset of each use from the base database number."""

    CHANNELS = 0
    CACHE = 1
    CELERY = 2


@dataclass(frozen=True)
class RedisTarget:
    scheme: str
    netloc: str
    path: str
    query: tuple[tuple[str, str], ...]
    base_db: int

    def db(self, use: Use) -> int:
        return self.base_db + use

    def url(self, use: Use) -> str:
        """A URL for redis-py's ``from_url`` (used by the cache and channels-redis)."""
        if self.scheme == "unix":
            return _join(self.scheme, self.netloc, self.path, [*self.query, ("db", self.db(use))])
        return _join(self.scheme, self.netloc, f"/{self.db(use)}", list(self.query))

    def kombu_url(self, use: Use = Use.CELERY) -> str:
        """The same server as a Celery broker URL; kombu spells unix sockets its own way."""
        if self.scheme == "unix":
            query: list[tuple[str, str | int]] = [*self.query, ("virtual_host", self.db(use))]
            return _join("redis+socket", self.netloc, self.path, query)
        return self.url(use)

    @property
    def base_url(self) -> str:
        return self.url(Use.CHANNELS)


def _join(scheme: str, netloc: str, path: str, query: list[tuple[str, str | int]]) -> str:
    # Not urlunsplit: with an empty netloc it writes "unix:/path", which redis-py and kombu
    # both reject; they want "unix:///path".
    text = f"{scheme}://{netloc}{path}"
    return f"{text}?{urlencode(query)}" if query else text


def parse_redis_url(url: str, *, name: str = "REDIS_URL", uses: int = len(Use)) -> RedisTarget:
    """Validate ``url`` and return the target; errors name the variable ``name``.

    ``uses`` is how many consecutive databases the URL's number starts: all three for
    ``REDIS_URL``, one for a use's own URL."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    query = parse_qsl(parts.query, keep_blank_values=True)
    # kombu spells a unix socket redis+socket:///path?virtual_host=n; the Celery command line
    # reads BROKER_URL itself, so that variable must be in kombu's spelling and is read here too.
    db_key = "virtual_host" if scheme == "redis+socket" else "db"
    db_in_query = [value for key, value in query if key == db_key]
    rest = tuple((key, value) for key, value in query if key != db_key)

    if scheme in {"unix", "redis+socket"}:
        scheme = "unix"
        if not parts.path.startswith("/"):
            raise ImproperlyConfigured(
                f"{name} must give an absolute socket path, like unix:///srv/redis.sock"
            )
        raw_db = db_in_query[-1] if db_in_query else "0"
        path = parts.path
    elif scheme in {"redis", "rediss"}:
        if not parts.hostname:
            raise ImproperlyConfigured(f"{name} must name a host, like redis://127.0.0.1:6379/0")
        try:
            _ = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"{name} has an invalid port: {url!r}") from None
        from_path = parts.path.strip("/")
        raw_db = from_path or (db_in_query[-1] if db_in_query else "0")
        path = ""
    else:
        raise ImproperlyConfigured(
            f"{name} must start with redis://, rediss:// or unix:// "
            f"(redis+socket:// for BROKER_URL), not {url!r}"
        )

    if not re.fullmatch(r"[0-9]{1,6}", raw_db):
        raise ImproperlyConfigured(f"{name} has a database number that is not a number: {raw_db!r}")
    base_db = int(raw_db)
    highest = base_db + uses - 1
    if highest >= DATABASE_COUNT and uses > 1:
        raise ImproperlyConfigured(
            f"{name} database {base_db} is too high: the site uses {len(Use)} consecutive "
            f"databases from it (channel layer, cache, Celery) and Redis has 0-"
            f"{DATABASE_COUNT - 1}; use {DATABASE_COUNT - len(Use)} or lower."
        )
    if highest >= DATABASE_COUNT:
        raise ImproperlyConfigured(
            f"{name} database {base_db} is too high: Redis has 0-{DATABASE_COUNT - 1}."
        )
    return RedisTarget(scheme=scheme, netloc=parts.netloc, path=path, query=rest, base_db=base_db)


# channels-redis waits for a consumer's next message with a blocking BZPOPMIN of 5 seconds;
# redis-py 8 gives every read a 5-second socket timeout by default, so an idle WebSocket's
# consumer died with "Timeout reading from ..." every few seconds.  The read must outlast
# the blocking pop.
CHANNEL_LAYER_SOCKET_TIMEOUT = 15.0


@dataclass(frozen=True)
class RedisSettings:
    """The Django settings for all three uses of one Redis server.

    Built in one place so the settings module and the test suite (which swaps in its own Redis
    server) cannot drift apart.
    """

    redis_url: str
    # Each use's redis-py URL, named by use: /readyz and /healthz ping every one.
    use_urls: dict[str, str]
    caches: dict[str, Any]
    channel_layers: dict[str, Any]
    celery_broker_url: str

    def as_django_settings(self) -> dict[str, Any]:
        return {
            "REDIS_URL": self.redis_url,
            "REDIS_USE_URLS": self.use_urls,
            "CACHES": self.caches,
            "CHANNEL_LAYERS": self.channel_layers,
            "CELERY_BROKER_URL": self.celery_broker_url,
        }


# The variables that give a use its own URL, by use.
OWN_URL_VARIABLES = {
    Use.CHANNELS: "CHANNEL_REDIS_URL",
    Use.CACHE: "CACHE_REDIS_URL",
    Use.CELERY: "BROKER_URL",
}


def redis_settings(
    url: str | None, *, name: str = "REDIS_URL", own: dict[Use, str] | None = None
) -> RedisSettings:
    """Settings for the three uses: each from its URL in ``own`` if there is one, else derived
    from ``url`` (which may be None only when every use has its own)."""
    own = own or {}
    targets: dict[Use, tuple[RedisTarget, Use]] = {}
    shared = parse_redis_url(url, name=name) if url is not None else None
    for use in Use:
        if use in own:
            # Taken as it is: the target's own number, offset 0.
            targets[use] = (parse_redis_url(own[use], name=OWN_URL_VARIABLES[use], uses=1), Use(0))
        elif shared is not None:
            targets[use] = (shared, use)
        else:
            raise ImproperlyConfigured(
                f"{name} must be set unless {', '.join(OWN_URL_VARIABLES.values())} all are."
            )

    def url_of(use: Use) -> str:
        target, offset = targets[use]
        return target.url(offset)

    broker, broker_offset = targets[Use.CELERY]
    return RedisSettings(
        redis_url=shared.base_url if shared is not None else url_of(Use.CHANNELS),
        use_urls={use.name.lower(): url_of(use) for use in Use},
        caches={
            "default": {
                "BACKEND": "remi_site.redis_cache.RedisCache",
                "LOCATION": url_of(Use.CACHE),
                "KEY_PREFIX": "remi",
            }
        },
        channel_layers={
            "default": {
                "BACKEND": "remi_site.channel_layer.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [
                        {
                            "address": url_of(Use.CHANNELS),
                            "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
                        }
                    ],
                    "prefix": "remi",
                },
            }
        },
        celery_broker_url=broker.kombu_url(broker_offset),
    )
