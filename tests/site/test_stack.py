"""Acceptance 1: the real process stack comes up, answers HTTP and WebSocket, and stops clean.

This starts the Procfile under the development supervisor exactly as ``./bin/run`` does
(daphne, a Celery worker, Celery beat and, unless REDIS_URL points at a server, the embedded
Redis), on a free port and a private var/ directory, then stops it with SIGINT as Ctrl-C would.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from django.conf import settings
from django.test import Client
from websockets.sync.client import connect

from remi_site.paths import BASE_DIR
from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    make_user,
    process_tree,
    short_temp_dir,
    stop_process_group,
    subprocess_env,
    wait_for,
)
from tests.site_processes import free_port

pytestmark = pytest.mark.stack


def get(url: str, *, cookie: str = "") -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@dataclass
class Stack:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path
    staff_cookie: str  # a logged-in staff session: /healthz shows staff the details

    def healthz(self, *, as_staff: bool = False) -> dict[str, Any]:
        status, body = get(f"{self.base_url}/healthz", cookie=self.staff_cookie if as_staff else "")
        return {**json.loads(body), "http_status": status}

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, condition: Any, *, what: str, timeout: float) -> Any:
        """Like tests.conftest.wait_for, but gives up early, with the log, if the stack died."""

        def alive_and(condition: Any = condition) -> Any:
            if self.process.poll() is not None:
                pytest.fail(f"the stack exited while waiting for {what}:\n{self.output()[-4000:]}")
            return condition()

        try:
            return wait_for(alive_and, timeout=timeout, interval=0.5, what=what)
        except pytest.fail.Exception:
            print(self.output()[-4000:])
            raise


@pytest.fixture
def stack(redis_server: RedisServer, transactional_db: None) -> Iterator[Stack]:
    # transactional_db: the test database exists (without it pytest-django creates none and
    # the URL below would name the development database) and rows written here are committed,
    # so the stack's daphne sees them; they are flushed after the test.
    database_url = database_url_for_subprocesses()
    browser = Client()
    browser.force_login(make_user("stack-operator", is_staff=True))
    staff_cookie = browser.cookies[settings.SESSION_COOKIE_NAME].output(header="", attrs=[]).strip()
    var_dir = short_temp_dir("remi-stack-")
    port = free_port()
    env = subprocess_env(
        REMI_VAR_DIR=str(var_dir),
        WEB_PORT=str(port),
        DATABASE_URL=database_url,
        HEARTBEAT_SECONDS="1",
        CELERY_CONCURRENCY="1",
        # Unset: the stack starts its own embedded Redis in var_dir, as ./bin/run does.
        REDIS_URL=None if redis_server.embedded else redis_server.url,
    )
    processes = [] if redis_server.embedded else ["web", "worker", "beat"]
    log = var_dir / "supervisor.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "remi_site.supervisor", "--procfile", "Procfile", *processes],
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    running = Stack(
        process=process, base_url=f"http://127.0.0.1:{port}", log=log, staff_cookie=staff_cookie
    )
    try:
        yield running
    finally:
        stop_process_group(process, sig=signal.SIGINT)
        shutil.rmtree(var_dir, ignore_errors=True)


def test_stack_serves_pages_health_and_websocket_then_stops_cleanly(stack, redis_server):
    health = stack.wait_for(
        lambda: (h := stack.healthz())["http_status"] == 200 and h,
        timeout=90,
        what="/healthz to report every part up",
    )
    assert health["checks"] == {
        "database": {"ok": True},
        "redis": {"ok": True},
        "celery": {"ok": True},
    }
    assert stack.healthz(as_staff=True)["checks"]["celery"]["workers"]

    # Beat -> broker -> worker -> cache: the heartbeat shows up in /healthz (for staff).
    stack.wait_for(
        lambda: stack.healthz(as_staff=True)["checks"]["celery"]["last_beat_heartbeat"],
        timeout=30,
        what="a beat heartbeat run by the worker",
    )

    status, body = get(f"{stack.base_url}/")
    assert status == 200
    assert b"Remi" in body
    status, body = get(f"{stack.base_url}/admin/")
    assert status == 200  # urllib followed the redirect to the admin login page
    assert b"Django administration" in body
    status, _ = get(f"{stack.base_url}/static/vendor/htmx/htmx.min.js")
    assert status == 200

    ws_url = stack.base_url.replace("http://", "ws://") + "/ws/ping/"
    with connect(ws_url, origin=stack.base_url, open_timeout=10) as websocket:
        websocket.send(json.dumps({"payload": "are you there"}))
        assert json.loads(websocket.recv(timeout=10)) == {
            "type": "pong",
            "payload": "are you there",
        }

    # Ctrl-C: the supervisor gets SIGINT and must take every process down with it.
    family = process_tree(stack.process.pid)
    expected = {"daphne", "celery"} | ({"redis-server"} if redis_server.embedded else set())
    names = " ".join(" ".join(p.cmdline()) for p in family if p.is_running())
    for program in expected:
        assert program in names, (program, names)
    stack.process.send_signal(signal.SIGINT)
    stack.process.wait(timeout=30)
    survivors = [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert survivors == [], stack.output()[-3000:]
    assert "stopped (rc=" in stack.output()


def command_line(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except psutil.Error:  # gone, or a zombie waiting to be reaped
        return ""


def programs_of(stack: Stack) -> dict[str, int]:
    """The pid of each program the supervisor runs (its direct children), by what it runs."""
    found: dict[str, int] = {}
    for child in psutil.Process(stack.process.pid).children():
        command = command_line(child)
        for program, marker in PROGRAM_MARKERS.items():
            if marker in command:
                found[program] = child.pid
    return found


PROGRAM_MARKERS = {
    "web": "daphne",
    "worker": "remi_site worker",
    "beat": "remi_site beat",
    "redis": "embedded_redis",
}


def test_a_killed_worker_is_restarted_while_the_rest_of_the_stack_stays_up(stack, redis_server):
    stack.wait_for(
        lambda: stack.healthz()["http_status"] == 200,
        timeout=90,
        what="/healthz to report every part up",
    )
    before = stack.wait_for(
        lambda: (found := programs_of(stack)).keys() >= {"web", "worker", "beat"} and found,
        timeout=30,
        what="the supervisor's programs",
    )
    family = process_tree(stack.process.pid)  # the worker's pool process included

    os.kill(before["worker"], signal.SIGKILL)

    stack.wait_for(
        lambda: "worker | exited (rc=-9); restarting in 1s" in stack.output(),
        timeout=30,
        what="the supervisor to notice the killed worker",
    )
    after = stack.wait_for(
        lambda: (
            (found := programs_of(stack)).get("worker") not in (None, before["worker"])
            and stack.healthz()["checks"]["celery"]["ok"]
            and found
        ),
        timeout=90,
        what="a new worker answering /healthz",
    )
    assert {name: pid for name, pid in after.items() if name != "worker"} == {
        name: pid for name, pid in before.items() if name != "worker"
    }
    assert stack.healthz()["http_status"] == 200

    family += process_tree(stack.process.pid)
    stack.process.send_signal(signal.SIGINT)
    assert stack.process.wait(timeout=40) == 0
    survivors = [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert survivors == [], stack.output()[-3000:]
