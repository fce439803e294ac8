"""Browser tests against a real ASGI site: daphne on the test database and the test Redis.

pytest-django's ``live_server`` is a WSGI server and speaks no WebSocket, so the pages that
update live (lobby, table, game) need daphne.  ``asgi_site`` starts it as a child process on a
free port, pointed at the test database (tests using it need
``django_db(transaction=True)``, so what they write is committed and daphne sees it) and at
the ``redis_server`` every test uses, which carries the channel layer and the Celery broker.
It inherits the test process's environment, so a ``monkeypatch.setenv`` made before the
fixture starts (``BOT_MOVE_DELAY_MS``, say) reaches it, as it reaches ``celery_worker``.

``player`` opens a browser context per person, logged in by a session cookie made with
Django's test client, so several people can sit at one table in one test.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from remi_site.paths import BASE_DIR
from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    short_temp_dir,
    stop_process_group,
    subprocess_env,
    wait_for,
)

# Generous but bounded: a live update crosses daphne, Redis and sometimes a Celery worker.
LIVE_TIMEOUT_MS = 15_000

# Counts the htmx ws extension's open sockets and received messages on every page, so a test
# can wait for a socket before it relies on live updates, and see that updates arrived; on a
# game page it also keeps the newest game version a socket message carried.
WS_PROBE = """
window.remiSockets = 0;
window.remiMessages = 0;
window.remiSocketVersion = -1;
document.addEventListener("htmx:wsOpen", () => { window.remiSockets += 1; });
document.addEventListener("htmx:wsAfterMessage", (event) => {
  window.remiMessages += 1;
  const found = /class="version"[^>]*>v(\\d+)</.exec(String(event.detail.message));
  if (found) window.remiSocketVersion = Math.max(window.remiSocketVersion, Number(found[1]));
});
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class AsgiSite:
    url: str
    log: Path
    process: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def _serves(url: str, process: subprocess.Popen[bytes], log: Path) -> bool:
    if process.poll() is not None:
        pytest.fail(f"daphne exited before serving:\n{log.read_text(errors='replace')[-4000:]}")
    try:
        # A static file: this also proves WhiteNoise serves htmx, which every live page needs.
        with urllib.request.urlopen(f"{url}/static/vendor/htmx/htmx.min.js", timeout=2) as r:
            return r.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@pytest.fixture
def asgi_site(
    transactional_db: None,
    redis_server: RedisServer,
) -> Iterator[AsgiSite]:
    """daphne serving the site (HTTP and WebSocket) on a free port; yields its base URL.

    Depends on ``transactional_db`` so it stops before the test database is flushed.
    """
    var_dir = short_temp_dir("remi-e2e-")
    port = free_port()
    env = subprocess_env(
        DATABASE_URL=database_url_for_subprocesses(),
        REDIS_URL=redis_server.url,
        DEBUG="true",  # WhiteNoise serves static files straight from the finders
        ALLOWED_HOSTS="127.0.0.1,localhost",
        REMI_VAR_DIR=str(var_dir),
        LOG_LEVEL="WARNING",
    )
    log = var_dir / "daphne.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "--bind",
                "127.0.0.1",
                "--port",
                str(port),
                "remi_site.asgi:application",
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    site = AsgiSite(url=url, log=log, process=process)
    try:
        wait_for(lambda: _serves(url, process, log), timeout=30, what=f"daphne at {url}")
        yield site
    finally:
        stop_process_group(process)
        output = site.output()
        shutil.rmtree(var_dir, ignore_errors=True)
        print(f"--- daphne log ---\n{output[-6000:]}")  # pytest shows it when the test fails
    # A server error is a bug even when the page recovered from it (a WebSocket consumer that
    # crashes is reconnected by htmx, and the page catches up): fail the test on one.
    if "Traceback" in output:
        pytest.fail("daphne logged an error; its log is in the captured output above")


@pytest.fixture(autouse=True)
def _live_expect_timeout() -> Iterator[None]:
    expect.set_options(timeout=LIVE_TIMEOUT_MS)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default


def session_cookie(user: Any, url: str) -> dict[str, Any]:
    """A cookie that logs ``user`` in: a session saved in the test database by force_login."""
    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": url,
    }


@pytest.fixture
def player(browser: Browser, asgi_site: AsgiSite) -> Iterator[Callable[[Any], Page]]:
    """``player(user)``: a page in a fresh browser context, logged in as ``user``."""
    contexts: list[BrowserContext] = []

    def open_page(user: Any) -> Page:
        context = browser.new_context(base_url=asgi_site.url)
        contexts.append(context)
        context.add_cookies([session_cookie(user, asgi_site.url)])
        context.add_init_script(WS_PROBE)
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def wait_for_socket(page: Page) -> None:
    """Wait until the page's htmx WebSocket is open (live updates flow from then on)."""
    page.wait_for_function("window.remiSockets > 0", timeout=LIVE_TIMEOUT_MS)


def mark_page(page: Page) -> None:
    """Tag the loaded document; ``assert_not_reloaded`` later proves it was never replaced."""
    page.evaluate("window.remiNoReload = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.remiNoReload === true"), "the page was reloaded"
