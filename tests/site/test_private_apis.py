"""The libraries' private parts the site leans on, each checked by name against the installed
version, so an upgrade that changes one fails here with what to re-read, not deep in a live
page.  Both are kept for what they measured (see their modules):

- ``remi_site/channel_layer.py`` sends a move's announcements to several groups in two round
  trips with channels-redis's ``_map_channel_keys_to_connection`` and ``_group_key`` (one
  ``group_send`` per group costs four round trips each, on the event loop every socket shares);
- ``remi_site/redis_cache.py`` shares one Redis client per process through Django's
  ``RedisCache._cache`` and its ``_class``, ``_servers`` and ``_options`` (a client per request
  cost 3 % of a live daphne's CPU in bench/live.py's profile);
- ``remi_site/prepared_queries.py`` runs a compiled query's SQL again and builds its objects as
  Django's ``ModelIterable`` does: the compiler's ``klass_info`` and ``select``,
  ``results_iter(results)`` and ``django.db.models.query.get_related_populators`` (compiling
  the SQL of a move's reads was about a millisecond a move).

The behaviour built on them is tested elsewhere (test_channel_layer_many.py,
test_redis_cache_pool.py); these say which private part moved.
"""

from __future__ import annotations

import asyncio
import inspect

import pytest
from channels_redis import core
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property

from remi_site.channel_layer import RedisChannelLayer
from remi_site.redis_cache import RedisCache

CHANNELS_REDIS = "channels-redis changed a private part remi_site/channel_layer.py uses"
DJANGO = "Django changed a private part of its Redis cache that remi_site/redis_cache.py uses"
COMPILER = "Django changed a private part of its SQL compiler that prepared_queries.py uses"


def parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)


def make_layer() -> RedisChannelLayer:
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    return RedisChannelLayer(**{**config, "prefix": "remi-private-api-test"})


def test_channels_redis_maps_channel_keys_to_hosts_as_the_layer_expects():
    private = getattr(core.RedisChannelLayer, "_map_channel_keys_to_connection", None)
    assert private is not None, f"{CHANNELS_REDIS}: _map_channel_keys_to_connection is gone"
    assert parameters(private) == ["self", "channel_names", "message"], CHANNELS_REDIS

    layer = make_layer()
    channels = ["specific.a!one", "specific.a!two", "specific.b!three"]
    message = {"type": "t", "text": "move 1"}
    by_host, serialized, capacity = layer._map_channel_keys_to_connection(channels, message)
    keys = [key for host_keys in by_host.values() for key in host_keys]
    assert set(by_host) <= set(range(len(layer.hosts))), CHANNELS_REDIS
    # One key per process part of a channel name, each with its serialized message and room.
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 2, CHANNELS_REDIS
    assert set(serialized) == set(capacity) == set(keys), CHANNELS_REDIS
    for key in keys:
        assert layer.deserialize(serialized[key])["text"] == "move 1", CHANNELS_REDIS
        assert capacity[key] == layer.get_capacity(channels[0]), CHANNELS_REDIS


def test_channels_redis_group_key_is_the_key_group_add_writes():
    private = getattr(core.RedisChannelLayer, "_group_key", None)
    assert private is not None, f"{CHANNELS_REDIS}: _group_key is gone"
    assert parameters(private) == ["self", "group"], CHANNELS_REDIS

    async def written() -> tuple[int, list[bytes]]:
        layer = make_layer()
        try:
            channel = await layer.new_channel()
            await layer.group_add("private-api", channel)
            key = layer._group_key("private-api")
            connection = layer.connection(layer.consistent_hash("private-api"))
            return await connection.exists(key), await connection.zrange(key, 0, -1)
        finally:
            await layer.flush()

    exists, members = asyncio.run(written())
    assert exists == 1 and len(members) == 1, CHANNELS_REDIS


def test_django_redis_cache_builds_its_client_where_the_shared_one_replaces_it():
    base = django_redis.RedisCache
    assert isinstance(base.__dict__.get("_cache"), cached_property), f"{DJANGO}: _cache"
    assert isinstance(RedisCache.__dict__["_cache"], cached_property)
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        pytest.fail(f"the default cache is {type(cache).__name__}, not the shared-client cache")
    for name in ("_class", "_servers", "_options"):
        assert hasattr(cache, name), f"{DJANGO}: {name}"
    assert cache._class is django_redis.RedisCacheClient, f"{DJANGO}: _class"
    assert parameters(django_redis.RedisCacheClient.get_client) == ["self", "key", "write"], DJANGO
    # Two cache objects of one process (two requests under ASGI) share the one client.
    other = RedisCache(cache._servers, {"OPTIONS": cache._options})
    assert other._cache is cache._cache


@pytest.mark.django_db
def test_django_s_compiler_describes_its_rows_as_prepared_queries_expect():
    from django.db.models import query
    from django.db.models.sql.compiler import SQLCompiler

    from games.models import Seat

    assert callable(getattr(query, "get_related_populators", None)), f"{COMPILER}: populators"
    assert parameters(query.get_related_populators) == ["klass_info", "select", "db"], COMPILER
    assert parameters(SQLCompiler.results_iter)[:2] == ["self", "results"], COMPILER
    compiler = Seat.objects.select_related("user").filter(pk=1).query.get_compiler("default")
    compiler.as_sql()
    info = compiler.klass_info
    assert info["model"] is Seat, COMPILER
    fields = info["select_fields"]
    assert [col[0].target.attname for col in compiler.select[fields[0] : fields[-1] + 1]] == [
        f.attname for f in Seat._meta.concrete_fields
    ], COMPILER
    assert len(query.get_related_populators(info, compiler.select, "default")) == 1, COMPILER
