"""/healthz answers 200 only when the database, Redis and a Celery worker all answer.

Everyone sees up or down per part; only staff see versions, worker names, errors and the beat
heartbeat.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from remi_site.tasks import HEARTBEAT_CACHE_KEY, record_heartbeat
from tests.conftest import make_user, wait_for

pytestmark = pytest.mark.django_db

UP = {"database": {"ok": True}, "redis": {"ok": True}, "celery": {"ok": True}}


@pytest.fixture
def staff_client(client):
    client.force_login(make_user("operator", is_staff=True))
    return client


def test_healthz_tells_the_public_only_that_each_part_is_up(client, alice, celery_worker):
    client.force_login(alice)  # logged in but not staff: still the public answer
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "down": [], "checks": UP}
    assert celery_worker.hostname not in response.content.decode()
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_shows_staff_versions_and_worker_names(staff_client, celery_worker):
    record_heartbeat()
    response = staff_client.get(reverse("healthz"))
    assert response.status_code == 200
    checks = response.json()["checks"]
    assert checks["database"]["vendor"] in {"sqlite", "postgresql"}
    assert checks["redis"]["ok"] is True
    assert checks["redis"]["version"].count(".") == 2
    assert celery_worker.hostname in checks["celery"]["workers"]
    assert checks["celery"]["last_beat_heartbeat"].startswith("20")


def test_healthz_is_503_naming_celery_without_the_error_for_the_public(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["celery"]
    assert body["checks"]["celery"] == {"ok": False}
    assert body["checks"]["database"] == {"ok": True}


def test_healthz_is_503_with_the_error_for_staff_when_no_worker_answers(staff_client):
    response = staff_client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["celery"]
    assert "no Celery worker answered" in body["checks"]["celery"]["error"]


def test_healthz_is_503_naming_redis_when_redis_is_unreachable(staff_client, settings, tmp_path):
    dead = f"unix://{tmp_path}/nothing-listens-here.sock"
    settings.REDIS_USE_URLS = {**settings.REDIS_USE_URLS, "cache": dead}
    response = staff_client.get(reverse("healthz"))
    assert response.status_code == 503
    assert "redis" in response.json()["down"]
    assert "ConnectionError" in response.json()["checks"]["redis"]["error"]
    staff_client.logout()
    public = staff_client.get(reverse("healthz")).json()
    assert public["checks"]["redis"] == {"ok": False}
    assert "nothing-listens-here" not in str(public)


def test_a_task_sent_through_the_broker_runs_on_the_real_worker(celery_worker):
    from django.core.cache import cache

    record_heartbeat.delay()
    stamp = wait_for(
        lambda: cache.get(HEARTBEAT_CACHE_KEY), timeout=20, what="the worker to run the task"
    )
    assert stamp.startswith("20")
