"""CHANNEL_REDIS_URL, CACHE_REDIS_URL and BROKER_URL on three databases of the real Redis.

The three databases are this test process's own share of the test Redis, handed out in another
order than REDIS_URL would (channels on the broker's usual database, and so on), so a use that
silently fell back to REDIS_URL would write into the wrong database and the test would see it.
A real Celery worker runs with REDIS_URL pointing at nothing: it can only work through its own
URLs.
"""

from __future__ import annotations

import pytest
import redis
from asgiref.sync import async_to_sync
from celery import Celery
from django.test import override_settings
from django.urls import reverse

from remi_site.redis_urls import Use, parse_redis_url, redis_settings
from remi_site.tasks import HEARTBEAT_CACHE_KEY
from tests.conftest import database_url_for_subprocesses, subprocess_env, wait_for
from tests.site_processes import SiteProcess, celery_worker_command

pytestmark = pytest.mark.django_db


def keys(url: str) -> list[str]:
    client = redis.Redis.from_url(url)
    try:
        return [key.decode() for key in client.keys("*")]
    finally:
        client.close()


@pytest.fixture
def own_urls(redis_server):
    target = parse_redis_url(redis_server.url)
    urls = {
        Use.CHANNELS: target.url(Use.CELERY),
        Use.CACHE: target.url(Use.CHANNELS),
        Use.CELERY: target.url(Use.CACHE),
    }
    for url in urls.values():
        redis.Redis.from_url(url).flushdb()
    yield urls
    for url in urls.values():
        redis.Redis.from_url(url).flushdb()


def test_three_uses_on_three_databases_each_from_its_own_variable(own_urls, tmp_path, client):
    dead = f"unix://{tmp_path}/nothing-listens-here.sock"
    worker = SiteProcess(
        "celery worker",
        celery_worker_command("per-use-worker@localhost"),
        subprocess_env(
            REDIS_URL=dead,
            CHANNEL_REDIS_URL=own_urls[Use.CHANNELS],
            CACHE_REDIS_URL=own_urls[Use.CACHE],
            # The Celery command line reads BROKER_URL itself: kombu's spelling.
            BROKER_URL=redis_settings(None, own=own_urls).celery_broker_url,
            DATABASE_URL=database_url_for_subprocesses(),
        ),
        tmp_path / "worker.log",
    ).start()
    try:
        # Sent by a Celery app that knows only the broker's own URL; the worker's answer is
        # written through its cache, which only CACHE_REDIS_URL names.
        # Not made the current app: the site's tasks, sent by later tests in this process,
        # would go to this test's broker and no worker would ever see them.
        broker = redis_settings(None, own=own_urls).celery_broker_url
        sender = Celery("sender", broker=broker, set_as_current=False)
        sender.send_task("remi_site.tasks.record_heartbeat")
        wait_for(
            lambda: any(HEARTBEAT_CACHE_KEY in key for key in keys(own_urls[Use.CACHE])),
            timeout=60,
            what=f"the worker to run the task (log: {worker.log})",
        )
        assert worker.running, worker.output()
    finally:
        worker.stop()
    assert not any(HEARTBEAT_CACHE_KEY in key for key in keys(own_urls[Use.CHANNELS]))

    site = redis_settings(dead, own=own_urls).as_django_settings()
    with override_settings(**site):
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        async_to_sync(layer.group_add)("per-use-probe", "channel-of-nobody")
        assert any("per-use-probe" in key for key in keys(own_urls[Use.CHANNELS]))
        assert not any("per-use-probe" in key for key in keys(own_urls[Use.CACHE]))
        # Readiness pings every use's own URL, and none of them is REDIS_URL's dead socket.
        assert client.get("/readyz").json() == {"status": "ok", "down": []}
        assert client.get(reverse("healthz")).json()["checks"]["redis"] == {"ok": True}
        with override_settings(REDIS_USE_URLS={**site["REDIS_USE_URLS"], "celery": dead}):
            assert client.get("/readyz").json() == {"status": "down", "down": ["redis"]}
