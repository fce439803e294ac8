"""LOG_FORMAT=json: a real daphne writes one JSON object per line, its clock in UTC, with the
request's id, the user's id and the game's id; SENTRY_DSN sends error reports to a local
HTTP endpoint that records them, without the failing frame's local variables."""

from __future__ import annotations

import gzip
import json
import logging
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import brotli
import pytest
from django.conf import settings
from django.test import Client

from remi_site import json_logs
from remi_site.paths import BASE_DIR
from tests.conftest import database_url_for_subprocesses, subprocess_env, wait_for
from tests.site_processes import SiteProcess, daphne_command, free_port

pytestmark = pytest.mark.django_db


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_a_line_has_a_utc_clock_the_bound_ids_and_no_field_it_was_not_given():
    formatter = json_logs.JsonFormatter()
    record = logging.LogRecord("remi.test", logging.WARNING, __file__, 1, "moved %s", (3,), None)
    record.created = 0.25  # 1970-01-01 00:00:00.250 UTC, whatever the machine's zone
    token = json_logs._context.set({"request_id": "r1"})
    try:
        json_logs.bind(game_id=7, version=12, user_id=None)
        entry = json.loads(formatter.format(record))
    finally:
        json_logs._context.reset(token)
    assert entry == {
        "time": "1970-01-01T00:00:00.250Z",
        "level": "WARNING",
        "logger": "remi.test",
        "message": "moved 3",
        "request_id": "r1",
        "game_id": 7,
        "version": 12,
    }
    with pytest.raises(ValueError, match="not a log context field: rack"):
        json_logs.bind(rack="R5 R6")


# Committed: the daphne child reads the user and the session from the database.
@pytest.mark.django_db(transaction=True)
def test_a_real_daphne_logs_json_lines_with_request_user_and_game(tmp_path, alice, redis_server):
    port = free_port()
    site = SiteProcess(
        "daphne",
        [*daphne_command(port), "-v", "0"],  # as deploy/ runs it: no text access log
        subprocess_env(
            DATABASE_URL=database_url_for_subprocesses(),
            REDIS_URL=redis_server.url,
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
        ),
        tmp_path / "daphne.log",
    ).start()
    browser = Client()
    browser.force_login(alice)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].output(header="", attrs=[]).strip()
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(
            lambda: urllib.request.urlopen(f"{base}/livez", timeout=2).status == 200,
            timeout=60,
            what=f"daphne to answer (log: {site.log})",
        )
        request = urllib.request.Request(
            f"{base}/games/987654/", headers={"Cookie": cookie, "X-Request-ID": "probe-31"}
        )
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=10)
        assert answer.value.code == 404
        assert answer.value.headers["X-Request-ID"] == "probe-31"
        line = wait_for(
            lambda: [
                e
                for e in json_lines(site.output())
                if e.get("request_id") == "probe-31" and e["logger"] == "django.request"
            ],
            timeout=10,
            what="the 404's log line",
        )[0]
    finally:
        site.stop()
    assert line["level"] == "WARNING"
    assert line["status"] == 404
    assert (line["user_id"], line["game_id"]) == (alice.pk, 987654)
    assert line["time"].endswith("Z")
    access = [e for e in json_lines(site.output()) if e["logger"] == "remi.access"]
    mine = [e for e in access if e.get("request_id") == "probe-31"]
    assert [e["message"] for e in mine] == ["GET /games/987654/ 404"]
    assert mine[0]["user_id"] == alice.pk and mine[0]["duration_ms"] >= 0
    # Every line the process wrote is one JSON object with the UTC clock, start-up included.
    for entry in json_lines(site.output()):
        assert entry["time"].endswith("Z"), entry


class Recorder(BaseHTTPRequestHandler):
    """A Sentry-compatible endpoint's outer edge: it keeps every body it is sent."""

    bodies: list[bytes]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        # As a Sentry server does: sentry-sdk sends Brotli when the module is installed (it is,
        # for WhiteNoise's static copies), gzip otherwise.
        encoding = self.headers.get("Content-Encoding")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "br":
            body = brotli.decompress(body)
        self.server.bodies.append(body)  # type: ignore[attr-defined]
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    server.bodies = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


FAILING = """
import logging, os
def deal():
    rack = os.environ["TEST_RACK"]  # a value only the running frame holds
    raise RuntimeError("the deal broke")
try:
    deal()
except RuntimeError:
    logging.getLogger("games.play.services").exception("dealing failed")
"""


def test_an_error_is_reported_to_the_dsn_without_the_frames_local_variables(recorder):
    port = recorder.server_address[1]
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", FAILING],
        cwd=BASE_DIR,
        env=subprocess_env(
            DATABASE_URL=database_url_for_subprocesses(),
            SENTRY_DSN=f"http://publickey@127.0.0.1:{port}/31",
            SENTRY_RELEASE="remi-test",
            TEST_RACK="SECRET-RACK-R5-B7",
        ),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    sent = b"\n".join(recorder.bodies).decode(errors="replace")
    assert "the deal broke" in sent and "RuntimeError" in sent
    assert "dealing failed" in sent
    assert "remi-test" in sent
    assert "SECRET-RACK" not in sent  # local variables stay on the server


def test_each_celery_task_starts_with_no_ids_bound():
    from celery.signals import task_prerun

    import remi_site.celery  # noqa: F401 (connects the signal, as the worker's import does)

    token = json_logs._context.set({})
    try:
        json_logs.bind(game_id=5, version=9)  # what a bot move leaves bound
        task_prerun.send(sender=None, task_id="next-task", task=None, args=(), kwargs={})
        assert json_logs.context() == {}
    finally:
        json_logs._context.reset(token)
