"""/healthz answers 200 only when the database, Redis and a Celery worker all answer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from remi_site.tasks import HEARTBEAT_CACHE_KEY, record_heartbeat
from tests.conftest import wait_for

pytestmark = pytest.mark.django_db


def test_healthz_is_200_when_database_redis_and_a_worker_answer(client, celery_worker):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["down"] == []
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is True
    assert body["checks"]["redis"]["version"]
    assert celery_worker.hostname in body["checks"]["celery"]["workers"]
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_is_503_naming_celery_when_no_worker_answers(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["celery"]
    assert "no Celery worker answered" in body["checks"]["celery"]["error"]
    assert body["checks"]["database"]["ok"] is True


def test_healthz_is_503_naming_redis_when_redis_is_unreachable(client, settings, tmp_path):
    settings.REDIS_URL = f"unix://{tmp_path}/nothing-listens-here.sock"
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert "redis" in response.json()["down"]
    assert "ConnectionError" in response.json()["checks"]["redis"]["error"]


def test_a_task_sent_through_the_broker_runs_on_the_real_worker(celery_worker):
    from django.core.cache import cache

    record_heartbeat.delay()
    stamp = wait_for(
        lambda: cache.get(HEARTBEAT_CACHE_KEY), timeout=20, what="the worker to run the task"
    )
    assert stamp.startswith("20")
