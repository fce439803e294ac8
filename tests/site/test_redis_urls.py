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
