from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from remi_site.redis_urls import Use, parse_redis_url, redis_settings


def test_tcp_url_keeps_host_credentials_and_options_and_counts_up_from_its_database():
    target = parse_redis_url("redis://:secret@cache.internal:6380/3?ssl_cert_reqs=none")
    assert target.url(Use.CHANNELS) == "redis://:secret@cache.internal:6380/3?ssl_cert_reqs=none"
    assert target.url(Use.CACHE) == "redis://:secret@cache.internal:6380/4?ssl_cert_reqs=none"
    assert target.kombu_url() == "redis://:secret@cache.internal:6380/5?ssl_cert_reqs=none"


def test_tcp_url_without_database_starts_at_zero():
    assert parse_redis_url("redis://localhost").url(Use.CELERY) == "redis://localhost/2"


def test_unix_socket_url_uses_db_query_for_redis_py_and_virtual_host_for_kombu():
    target = parse_redis_url("unix:///srv/remi/redis.sock?db=4")
    assert target.url(Use.CACHE) == "unix:///srv/remi/redis.sock?db=5"
    assert target.kombu_url() == "redis+socket:///srv/remi/redis.sock?virtual_host=6"


def test_database_too_high_for_three_uses_is_refused_with_the_variable_name():
    with pytest.raises(ImproperlyConfigured, match=r"^BROKER database 14 is too high"):
        parse_redis_url("redis://localhost/14", name="BROKER")
    assert parse_redis_url("redis://localhost/13").kombu_url() == "redis://localhost/15"


def test_settings_for_all_uses_come_from_one_url():
    settings = redis_settings("redis://127.0.0.1:6379/10").as_django_settings()
    assert settings["REDIS_URL"] == "redis://127.0.0.1:6379/10"
    assert settings["CACHES"]["default"]["LOCATION"] == "redis://127.0.0.1:6379/11"
    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/12"


def test_each_use_may_have_its_own_url_taken_as_it_is_database_0_included():
    own = {
        Use.CHANNELS: "redis://channels.internal:6379/0",
        Use.CACHE: "rediss://:pw@cache.internal:6380/0",
        Use.CELERY: "redis+socket:///srv/broker.sock?virtual_host=15",
    }
    settings = redis_settings(None, own=own).as_django_settings()
    layer = settings["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"][0]["address"]
    assert layer == "redis://channels.internal:6379/0"
    assert settings["CACHES"]["default"]["LOCATION"] == "rediss://:pw@cache.internal:6380/0"
    assert settings["CELERY_BROKER_URL"] == "redis+socket:///srv/broker.sock?virtual_host=15"
    assert settings["REDIS_USE_URLS"] == {
        "channels": "redis://channels.internal:6379/0",
        "cache": "rediss://:pw@cache.internal:6380/0",
        "celery": "unix:///srv/broker.sock?db=15",
    }


def test_a_use_without_its_own_url_falls_back_to_its_database_from_redis_url():
    settings = redis_settings(
        "redis://127.0.0.1:6379/4", own={Use.CACHE: "redis://cache.internal:6379/0"}
    ).as_django_settings()
    assert settings["REDIS_URL"] == "redis://127.0.0.1:6379/4"
    assert settings["CACHES"]["default"]["LOCATION"] == "redis://cache.internal:6379/0"
    assert settings["CELERY_BROKER_URL"] == "redis://127.0.0.1:6379/6"


def test_bad_own_urls_and_a_missing_fallback_are_named():
    with pytest.raises(ImproperlyConfigured, match=r"^BROKER_URL must start with redis://"):
        redis_settings("redis://localhost/0", own={Use.CELERY: "amqp://rabbit"})
    with pytest.raises(ImproperlyConfigured, match=r"^CACHE_REDIS_URL database 16 is too high"):
        redis_settings("redis://localhost/0", own={Use.CACHE: "redis://localhost/16"})
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must be set unless"):
        redis_settings(None, own={Use.CACHE: "redis://localhost/0"})
