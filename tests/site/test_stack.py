"""Acceptance 1: the real process stack comes up, answers HTTP and WebSocket, and stops clean.

This starts the Procfile through honcho exactly as ``./bin/run`` does (daphne, a Celery
worker, Celery beat and, unless REDIS_URL points at a server, the embedded Redis), on a free
port and a private var/ directory, then stops it with SIGINT as Ctrl-C would.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from websockets.sync.client import connect

from remi_site.paths import BASE_DIR
from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    process_tree,
    short_temp_dir,
    stop_process_group,
    subprocess_env,
    wait_for,
)

pytestmark = pytest.mark.stack


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@dataclass
class Stack:
    process: subprocess.Popen[bytes]
    base_url: str
    log: Path

    def healthz(self) -> dict[str, Any]:
        status, body = get(f"{self.base_url}/healthz")
        return {**json.loads(body), "http_status": status}

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, condition: Any, *, what: str, timeout: float) -> Any:
        """Like tests.conftest.wait_for, but gives up early, with the log, if honcho died."""

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
def stack(
    redis_server: RedisServer, django_db_setup: None, django_db_blocker: Any
) -> Iterator[Stack]:
    with django_db_blocker.unblock():
        database_url = database_url_for_subprocesses()
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
    log = var_dir / "honcho.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["honcho", "start", "--no-colour", "--procfile", "Procfile", *processes],
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    running = Stack(process=process, base_url=f"http://127.0.0.1:{port}", log=log)
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
    assert health["checks"]["database"]["ok"]
    assert health["checks"]["redis"]["ok"]
    assert health["checks"]["celery"]["workers"]

    # Beat -> broker -> worker -> cache: the heartbeat shows up in /healthz.
    stack.wait_for(
        lambda: stack.healthz()["checks"]["celery"]["last_beat_heartbeat"],
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

    # Ctrl-C: honcho gets SIGINT and must take every process down with it.
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
