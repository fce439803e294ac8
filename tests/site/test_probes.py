"""/livez and /readyz of a real daphne whose parts are really down (acceptance 2 of issue 31).

Each site is a daphne child process. "Down" is never a mock: the database is a PostgreSQL URL
on a port where nothing listens, and Redis is a redis-server of this test's own that the test
kills with SIGKILL mid-way (the shared test Redis must stay up for the other tests).
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from remi_site.embedded_redis import server_command
from tests.conftest import (
    database_url_for_subprocesses,
    short_temp_dir,
    stop_process_group,
    subprocess_env,
    wait_for,
)
from tests.site_processes import SiteProcess, daphne_command, free_port

pytestmark = pytest.mark.django_db

# Every variable that could point the child at the shared test Redis instead of its own.
REDIS_VARIABLES = ("CHANNEL_REDIS_URL", "CACHE_REDIS_URL", "BROKER_URL")


def get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture
def own_redis() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A redis-server only this test uses, so killing it harms no one else."""
    folder = short_temp_dir("remi-probe-redis-")
    socket_path = folder / "redis.sock"
    process = subprocess.Popen(
        server_command(socket_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for(socket_path.exists, timeout=15, what="the test's own redis-server")
    try:
        yield process, f"unix://{socket_path}"
    finally:
        stop_process_group(process)
        shutil.rmtree(folder, ignore_errors=True)


def dead_database_url() -> str:
    # A real PostgreSQL client connecting to a port nothing listens on: refused at once.
    return f"postgres://postgres@127.0.0.1:{free_port()}/nothing_here"


def dead_redis_url(tmp_path: Path) -> str:
    return f"unix://{tmp_path}/nothing-listens-here.sock"


def start_site(tmp_path: Path, *, database_url: str, redis_url: str) -> tuple[SiteProcess, str]:
    port = free_port()
    env = subprocess_env(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        **dict.fromkeys(REDIS_VARIABLES),
    )
    site = SiteProcess("daphne", daphne_command(port), env, tmp_path / "daphne.log").start()
    base = f"http://127.0.0.1:{port}"
    wait_for(
        lambda: get(f"{base}/livez")[0] == 200 or site.exited(),
        timeout=60,
        what="daphne to answer /livez",
    )
    assert site.running, site.output()
    return site, base


def test_livez_answers_and_readyz_names_both_parts_when_database_and_redis_are_down(tmp_path):
    site, base = start_site(
        tmp_path, database_url=dead_database_url(), redis_url=dead_redis_url(tmp_path)
    )
    try:
        assert get(f"{base}/livez") == (200, {"status": "ok"})
        status, body = get(f"{base}/readyz")
        assert status == 503
        assert body == {"status": "down", "down": ["database", "redis"]}
        assert "nothing-listens-here" not in json.dumps(body)  # no addresses to the public
    finally:
        site.stop()


def test_readyz_is_503_with_only_the_database_down(tmp_path, own_redis):
    _redis, redis_url = own_redis
    site, base = start_site(tmp_path, database_url=dead_database_url(), redis_url=redis_url)
    try:
        assert get(f"{base}/readyz") == (503, {"status": "down", "down": ["database"]})
        assert get(f"{base}/livez")[0] == 200
    finally:
        site.stop()


def test_readyz_is_200_without_a_worker_and_503_once_redis_dies(tmp_path, own_redis):
    redis_process, redis_url = own_redis
    site, base = start_site(
        tmp_path, database_url=database_url_for_subprocesses(), redis_url=redis_url
    )
    try:
        # No Celery worker runs for this site: ready for the proxy, unhealthy for people.
        assert get(f"{base}/readyz") == (200, {"status": "ok", "down": []})
        status, health = get(f"{base}/healthz")
        assert status == 503
        assert health["down"] == ["celery"]

        redis_process.send_signal(signal.SIGKILL)
        redis_process.wait(timeout=10)
        assert get(f"{base}/readyz") == (503, {"status": "down", "down": ["redis"]})
        assert get(f"{base}/livez") == (200, {"status": "ok"})
    finally:
        site.stop()


def test_probes_answer_any_host_and_refuse_other_methods(client):
    # Probes address a process by its IP, which ALLOWED_HOSTS need not list.
    assert client.get("/livez", HTTP_HOST="10.1.2.3:8000").status_code == 200
    assert client.get("/readyz", HTTP_HOST="10.1.2.3:8000").status_code == 200
    refused = client.post("/livez")
    assert refused.status_code == 405
    assert refused["Allow"] == "GET, HEAD"
