"""The real process stack for the live benchmarks (bench/live.py, bench/bot_latency.py).

Not a benchmark itself: it starts daphne (and, when asked, a Celery worker and the embedded
Redis) as child processes on a fresh database in a temporary directory, and gives the driver
what a browser has: an HTTP session logged in through the real login form, and a WebSocket
on a game that records when each version arrives.  Everything listens on 127.0.0.1 only, and
everything started here is stopped (process group by process group) when the ``with`` ends.

The driver process uses Django too (to create users and tables and to read a game's state to
choose moves), so :func:`configure` sets the environment before Django is imported.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

BASE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BASE_DIR))

from tests.site_processes import free_port  # noqa: E402  (after the path)

HOST = "127.0.0.1"
PASSWORD = "bench-tile-rack-42"

# The version a game page or frame shows (the status line's "v12").
VERSION = re.compile(r'title="Moves played">v(\d+)<')
YOUR_TURN = 'class="turn your-turn"'
GAME_OVER = "The game is over."


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def describe_database(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        return f"SQLite /{parts.path.lstrip('/')}"
    return f"{parts.scheme} {parts.hostname}:{parts.port or 5432}{parts.path}"  # no password


def describe_redis(url: str, embedded: bool) -> str:
    if embedded:
        return f"embedded redis-server on {urlsplit(url).path}"
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}{parts.path}"


@dataclass
class Stack:
    """Settings for the children and the driver; :meth:`start` runs the processes."""

    workdir: Path
    database_url: str
    redis_url: str
    embedded_redis: bool
    debug: bool
    port: int = field(default_factory=free_port)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    # Every daphne's port (the first is ``port``); clients spread over them as behind a
    # load balancer.
    ports: list[int] = field(default_factory=list)
    # One key for the driver and every child: sessions the driver writes must verify there.
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    # DATABASE_POOL_SIZE as given to the bench: the site's processes pool, the driver not.
    pool_size: str = field(default_factory=lambda: os.environ.get("DATABASE_POOL_SIZE", ""))

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def web_processes(self) -> list[subprocess.Popen[bytes]]:
        return [p for name, p in self.processes.items() if name.startswith("daphne")]

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        if self.pool_size:
            env["DATABASE_POOL_SIZE"] = self.pool_size
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env.update(
            DJANGO_SETTINGS_MODULE="remi_site.settings",
            PYTHONUNBUFFERED="1",
            REMI_VAR_DIR=str(self.workdir),
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            LOG_LEVEL="WARNING",
            STATIC_ROOT=str(self.workdir / "static"),
            CELERY_BEAT_SCHEDULE_FILE=str(self.workdir / "celerybeat"),
        )
        if self.debug:
            env["DEBUG"] = "true"
        else:
            # Production settings, minus what needs HTTPS in front of the site.
            env.update(
                DEBUG="false",
                SECRET_KEY=self.secret_key,
                ALLOWED_HOSTS=f"{HOST},localhost",
                SECURE_SSL_REDIRECT="false",
                SECURE_COOKIES="false",
                SECURE_HSTS_SECONDS="0",
                # Not kept by default: under daphne each concurrent HTTP request runs in a
                # thread of its own, and kept connections pile up past the server's limit.
                DATABASE_CONN_MAX_AGE=os.environ.get("DATABASE_CONN_MAX_AGE", "0"),
            )
        env.update(extra)
        return env

    def run(self, *args: str) -> None:
        """A one-off manage.py command (migrate, collectstatic), quietly unless it fails."""
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")

    def spawn(self, name: str, command: list[str], **extra: str) -> None:
        log = (self.workdir / f"{name}.log").open("wb")
        self.processes[name] = subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=self.env(**extra),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped with all its children
        )
        log.close()

    def log_tail(self, name: str, chars: int = 3000) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace")[-chars:] if path.exists() else ""

    def wait(self, what: str, ready: Any, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(
                        f"{name} exited while waiting for {what}:\n{self.log_tail(name)}"
                    )
            with contextlib.suppress(Exception):
                if ready():
                    return
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {what}")

    def start(
        self,
        *,
        worker: bool = False,
        web_procs: int = 1,
        app: str = "remi_site.asgi:application",
        **extra: str,
    ) -> None:
        if self.embedded_redis:
            from remi_site.embedded_redis import server_command

            self.spawn("redis", server_command(Path(urlsplit(self.redis_url).path)))
            self.wait("Redis", lambda: _redis_ping(self.redis_url))
        self.run("migrate", "--noinput")
        if not self.debug:
            self.run("collectstatic", "--noinput")
        self.ports = [self.port + n for n in range(web_procs)]
        for n, port in enumerate(self.ports):
            name = "daphne" if n == 0 else f"daphne{n + 1}"
            self.spawn(name, ["daphne", "--bind", HOST, "--port", str(port), app], **extra)
        for port in self.ports:
            self.wait("daphne", lambda port=port: _http_status(f"http://{HOST}:{port}/") == 200)
        if worker:
            self.spawn(
                "worker",
                [
                    sys.executable,
                    *("-m", "celery", "--app", "remi_site", "worker", "--loglevel", "WARNING"),
                    *("--concurrency", "2", "--without-gossip", "--without-mingle"),
                    *("--hostname", f"bench-{os.getpid()}@localhost"),
                ],
                **extra,
            )
            from remi_site.celery import app

            self.wait(
                "the Celery worker",
                lambda: app.control.ping(
                    destination=[f"bench-{os.getpid()}@localhost"], timeout=0.5
                ),
            )

    def stop(self) -> list[str]:
        """Stop every child's process group; return what was still running afterwards."""
        import psutil

        family = []
        for process in self.processes.values():
            with contextlib.suppress(psutil.NoSuchProcess):
                parent = psutil.Process(process.pid)
                family += [parent, *parent.children(recursive=True)]
        web = [name for name in self.processes if name.startswith("daphne")]
        for name in ("worker", *web, "redis"):  # the workers first, Redis last
            process = self.processes.get(name)
            if process is None or process.poll() is not None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
        time.sleep(0.2)
        strays = []
        for member in family:
            with contextlib.suppress(psutil.NoSuchProcess):
                if member.is_running() and member.status() != psutil.STATUS_ZOMBIE:
                    strays.append(f"{member.pid} {' '.join(member.cmdline())[:80]}")
                    member.kill()
        return strays


def _redis_ping(url: str) -> bool:
    import redis

    return bool(redis.Redis.from_url(url).ping())


def _http_status(url: str) -> int:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
    try:
        connection.request("GET", parts.path or "/")
        return connection.getresponse().status
    finally:
        connection.close()


@contextlib.contextmanager
def running_stack(
    *,
    worker: bool = False,
    debug: bool = False,
    web_procs: int = 1,
    port: int | None = None,
    app: str = "remi_site.asgi:application",
    **extra: str,
) -> Iterator[Stack]:
    """A started stack on a fresh database (DATABASE_URL if set, else SQLite in a temporary
    directory) and Redis (REDIS_URL if set, else an embedded server on a unix socket there);
    ``web_procs`` daphne processes on ``port`` and the ports after it (free ones if None)."""
    workdir = Path(tempfile.mkdtemp(prefix="remi-bench-", dir="/tmp"))  # short: a unix socket
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir / 'db.sqlite3'}"
    redis_url = os.environ.get("REDIS_URL") or f"unix://{workdir / 'redis.sock'}"
    stack = Stack(workdir, database_url, redis_url, not os.environ.get("REDIS_URL"), debug)
    stack.port = port if port is not None else free_port(web_procs)
    configure(stack, **extra)
    stopped = False

    def on_signal(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt  # unwinds through the finally below

    previous = signal.signal(signal.SIGTERM, on_signal)
    try:
        stack.start(worker=worker, web_procs=web_procs, app=app, **extra)
        yield stack
        strays = stack.stop()
        stopped = True
        print(f"processes stopped: {', '.join(stack.processes)}; strays: {strays or 'none'}")
    finally:
        if not stopped:
            # The run failed: what the processes said is the only clue, and it goes with workdir.
            for name in stack.processes:
                if tail := stack.log_tail(name):
                    print(f"--- the end of {name}'s log:\n{tail}", file=sys.stderr)
            stack.stop()
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(workdir, ignore_errors=True)


def configure(stack: Stack, **extra: str) -> None:
    """Point this process's Django at the stack's database and Redis, then set it up."""
    for key, value in stack.env(**extra).items():
        if key not in ("PATH", "DATABASE_POOL_SIZE"):
            os.environ[key] = value
    # The driver's own threads hold a connection each until they end, outside any request
    # that would hand it back: pooled, they would drain the pool.  Only the site pools.
    os.environ.pop("DATABASE_POOL_SIZE", None)
    import django

    django.setup()


# --- A browser's worth of client -------------------------------------------------------------


class Browser:
    """One person's HTTP session: cookies, the CSRF header, htmx's request header."""

    def __init__(self, stack: Stack, port: int | None = None) -> None:
        self.stack = stack
        self.port = port or stack.port  # which of the daphne processes it talks to
        self.base_url = f"http://{HOST}:{self.port}"
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        # The game page's own name (games.play.page_tabs) when it plays as that page: sent with
        # each request, as the page's htmx does, and given to the page's socket.
        self.tab = ""

    def request(
        self, method: str, path: str, fields: dict[str, Any] | None = None, htmx: bool = False
    ) -> tuple[int, str]:
        headers = {"Origin": self.base_url, "Referer": self.base_url + path}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        if htmx:
            headers["HX-Request"] = "true"
            if self.tab:
                headers["X-Remi-Tab"] = self.tab
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):  # a kept-alive connection the server closed: once more
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port, timeout=30)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                text = response.read().decode()
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise
                continue
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, text
        raise AssertionError("unreachable")

    def log_in(self, username: str, password: str = PASSWORD) -> None:
        """Through allauth's login form, as a person would."""
        status, page = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert status == 200 and token, status
        fields = {"csrfmiddlewaretoken": token.group(1), "login": username, "password": password}
        status, _ = self.request("POST", "/accounts/login/", fields)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"{username} could not log in (HTTP {status})")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


@dataclass(frozen=True)
class Frame:
    version: int
    at: float  # time.perf_counter() when it arrived
    my_turn: bool  # the status line says "Your turn"
    over: bool


class GameSocket:
    """A game page's WebSocket, read on its own thread: each frame's version and time."""

    def __init__(self, browser: Browser, game_id: int, version: int) -> None:
        from websockets.sync.client import connect

        self.socket = connect(
            f"ws://{HOST}:{browser.port}/ws/games/{game_id}/?version={version}",
            origin=browser.base_url,
            additional_headers={"Cookie": f"sessionid={browser.cookies['sessionid']}"},
            open_timeout=10,
            max_size=2**22,
        )
        self.received: list[Frame] = []
        self.frames = 0
        self.changed = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                frame = self.socket.recv()
            except (ConnectionClosed, OSError):
                break
            now = time.perf_counter()
            text = frame if isinstance(frame, str) else frame.decode()
            match = VERSION.search(text)
            with self.changed:
                self.frames += 1
                if match:
                    self.received.append(
                        Frame(int(match.group(1)), now, YOUR_TURN in text, GAME_OVER in text)
                    )
                self.changed.notify_all()
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def wait_until(self, wanted: Callable[[Frame], bool], timeout: float) -> Frame | None:
        """The first frame (received so far or still to come) that is ``wanted``, or None."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = next((f for f in self.received if wanted(f)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return None
                self.changed.wait(left)

    def wait_for(self, version: int, timeout: float) -> Frame | None:
        """The first frame at ``version`` or later."""
        return self.wait_until(lambda f: f.version >= version, timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.socket.close()
        self.thread.join(timeout=5)


def make_users(prefix: str, count: int) -> list[Any]:
    """``count`` users with one password, hashed once (the hasher is slow on purpose)."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    hashed = make_password(PASSWORD)
    return User.objects.bulk_create(
        [
            User(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password=hashed)
            for n in range(count)
        ]
    )


def current_game(table_id: int) -> Any:
    from games.models import Game

    return Game.objects.filter(table_id=table_id).order_by("-number").first()
