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
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import global_settings, settings
from django.db import connections
from django.test import Client
from django.utils.module_loading import import_string
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    short_temp_dir,
    subprocess_env,
    wait_for,
)
from tests.site_processes import SiteProcess, daphne_command, daphne_serves, free_port

# A phone held upright: 375 CSS pixels wide, touch only.
PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True}

# Generous but bounded: a live update crosses daphne, Redis and sometimes a Celery worker.
LIVE_TIMEOUT_MS = 15_000

# Counts the htmx ws extension's open sockets and received messages on every page, so a test
# can wait for a socket before it relies on live updates, and see that updates arrived; on a
# game page it also keeps the game versions socket messages carried, in order, apart from the
# answers to the page's own moves (remiAnswerVersions), and keeps the moves it sent.
WS_PROBE = """
window.remiSockets = 0;
window.remiMessages = 0;
window.remiSocketVersion = -1;
window.remiSocketVersions = [];
window.remiAnswerVersions = [];
window.remiMovesSent = [];
window.remiGameSockets = 0;
window.remiOpened = new WeakSet();
document.addEventListener("htmx:wsOpen", (event) => {
  window.remiSockets += 1;
  window.remiOpened.add(event.target);
  if (event.target.id === "game") window.remiGameSockets += 1;
});
document.addEventListener("htmx:wsAfterSend", (event) => {
  window.remiMovesSent.push(JSON.parse(event.detail.message));
});
window.remiGameMessages = 0;
document.addEventListener("htmx:wsAfterMessage", (event) => {
  window.remiMessages += 1;
  if (event.target.id === "game") window.remiGameMessages += 1;
  const message = String(event.detail.message);
  const found = /class="version"[^>]*>v(\\d+)</.exec(message);
  if (found) {
    const answers = message.startsWith("<!--acted-->");
    (answers ? window.remiAnswerVersions : window.remiSocketVersions).push(Number(found[1]));
    window.remiSocketVersion = Math.max(window.remiSocketVersion, Number(found[1]));
  }
});
"""


@dataclass(frozen=True)
class AsgiSite:
    url: str
    daphne: SiteProcess

    @property
    def log(self) -> Path:
        return self.daphne.log

    def output(self) -> str:
        return self.daphne.output()


def serves(url: str, daphne: SiteProcess) -> bool:
    """Whether daphne at ``url`` answers yet; fails the test at once if it exited."""
    if daphne.exited():
        pytest.fail(f"daphne exited before serving:\n{daphne.output()[-4000:]}")
    return daphne_serves(url)


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
        # Production's pooled connections when the tests run on PostgreSQL (SQLite ignores it).
        DATABASE_POOL_SIZE="4",
    )
    daphne = SiteProcess(
        name="daphne", command=daphne_command(port), env=env, log=var_dir / "daphne.log"
    ).start()
    url = f"http://127.0.0.1:{port}"
    site = AsgiSite(url=url, daphne=daphne)
    try:
        wait_for(lambda: serves(url, daphne), timeout=30, what=f"daphne at {url}")
        yield site
    finally:
        # A request still in flight holds a daphne's exit: its thread waits in the middleware
        # chain's hop back to the event loop, which SIGTERM has stopped, until it is killed
        # (issue 28's note has the stack).  Graceful stops are tests/site/test_production_stack.py's
        # subject; here a page the test no longer reads gets two seconds, not twenty.
        daphne.stop(timeout=2)
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


def let_log_in_with(user: Any, password: str) -> None:
    """Store ``password`` for ``user`` hashed as the site hashes it, so the person can log in
    through the site's form: daphne runs with the site's settings, which do not know the
    fast hasher the test process uses.  Call it before ``player(user)``: a new password
    ends the user's sessions (the session keeps a hash of the password)."""
    hasher = import_string(global_settings.PASSWORD_HASHERS[0])()
    user.password = hasher.encode(password, hasher.salt())
    # An update, not save(): save's signal would publish to the user's sockets, from the
    # browser's event loop thread.
    type(user).objects.filter(pk=user.pk).update(password=user.password)


@pytest.fixture
def site_context(browser: Browser, asgi_site: AsgiSite) -> Iterator[Callable[..., BrowserContext]]:
    """``site_context(**context_options)``: a fresh browser context on the site, logged out,
    with the socket probe and the live timeout; closed after the test."""
    contexts: list[BrowserContext] = []

    def new_context(**context_options: Any) -> BrowserContext:
        context = browser.new_context(base_url=asgi_site.url, **context_options)
        contexts.append(context)
        context.add_init_script(WS_PROBE)
        context.set_default_timeout(LIVE_TIMEOUT_MS)
        return context

    yield new_context
    for context in contexts:
        context.close()


@pytest.fixture
def player(
    site_context: Callable[..., BrowserContext], asgi_site: AsgiSite
) -> Callable[[Any], Page]:
    """``player(user)``: a page in a fresh browser context, logged in as ``user``;
    ``player(user, **PHONE)`` gives it the context options of a phone."""

    def open_page(user: Any, **context_options: Any) -> Page:
        context = site_context(**context_options)
        context.add_cookies([session_cookie(user, asgi_site.url)])
        return context.new_page()

    return open_page


@pytest.fixture
def visitor(site_context: Callable[..., BrowserContext]) -> Callable[..., Page]:
    """``visitor(**context_options)``: a page in a fresh browser context, logged out (a
    person who opens a link from an email on another device)."""

    def open_page(**context_options: Any) -> Page:
        return site_context(**context_options).new_page()

    return open_page


def wait_for_socket(page: Page, count: int = 1) -> None:
    """Wait until every WebSocket the page declares (each ``ws-connect`` element: a game
    page has the game's, the chat's and the badge's) is open, and ``count`` opens at least
    have been seen; live updates flow from then on.  Counting opens alone raced: the badge's
    socket could open first, and a move sent before the game's opened went by HTTP."""
    page.wait_for_function(
        """count => window.remiSockets >= count && Array.from(
            document.querySelectorAll("[ws-connect]")).every(el => window.remiOpened.has(el))""",
        arg=count,
        timeout=LIVE_TIMEOUT_MS,
    )


def wait_for_game_socket(page: Page, opened: int = 1) -> None:
    """Wait until the game page's own socket has opened ``opened`` times (again after a cut)."""
    page.wait_for_function(
        "opened => window.remiGameSockets >= opened", arg=opened, timeout=LIVE_TIMEOUT_MS
    )


def page_width(page: Page) -> int:
    """The page's laid-out width, measured once its stylesheets have loaded.  A script may force
    a layout before a revalidated stylesheet arrives (seen on a loaded CI machine); that
    unstyled layout, which no person ever sees painted, is not the page's width."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


def open_table_form(page: Page, press: Callable[[Locator], None] | None = None) -> None:
    """From the lobby, open the new-table form (``press`` taps on a phone) and wait until
    htmx listens to it.  Changing the game or the pace re-renders part of the form through
    htmx, whose script is deferred: a change made before the page's load event can go
    unheard, and the form keeps the old game's or pace's fields."""
    (press or Locator.click)(page.locator("#create-table"))
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    page.wait_for_load_state("load")


def mark_page(page: Page) -> None:
    """Tag the loaded document; ``assert_not_reloaded`` later proves it was never replaced."""
    page.evaluate("window.remiNoReload = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.remiNoReload === true"), "the page was reloaded"


def off_the_browser_loop(work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run site code that publishes to the channel layer (``services.start_table``…) from a
    browser test.  Playwright's sync API keeps an event loop running in the test's thread, and
    ``async_to_sync`` refuses to run there; a worker thread is what a view or task would be."""

    def in_the_thread() -> Any:
        try:
            return work(*args, **kwargs)
        finally:
            # The thread's own database connection goes with it, not when it is collected:
            # left open, PostgreSQL refused to drop the test database at the end of the run.
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(in_the_thread).result()
