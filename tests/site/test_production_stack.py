"""Issue 31, point 2: the production shape, run for real and abused.

Debian's nginx (deploy/nginx/remi.conf, rendered by deploy/render.py) in front of two daphne
processes, a Celery worker and Celery beat, started with the commands of deploy/systemd/
(the release step first) and the settings of deploy/systemd/remi.env (DEBUG=false), on
PostgreSQL and the Redis server.  Everything the players do goes through nginx:

* two players sign up through the real signup form (CSRF and all);
* one makes a correspondence move over the game socket and the other lets the deadline pass:
  beat's sweep and the worker play the turn, and the first player's socket shows it;
* they play a live hand of Basic Rummy (block rummy) with a bot seat (the worker plays it)
  to its end, each player with two tabs open on the game's socket.  Mid-game, right after a
  move is sent, the daphne holding the game's sockets (nginx routes a game to one process)
  is SIGKILLed by its pid: every tab reconnects through nginx to the other daphne and the
  game goes on; then a rolling restart (each daphne in turn SIGTERMed, moves played
  meanwhile, started again);
* the move log in the database has every version once, 1 to the last, and every move a
  player sent is in it at the version it was sent for.

The players choose the engine's timeout move (always legal; draw, then discard the highest
card), which makes the three-seat hand last 57-64 moves whatever the deal, so every phase
has moves to play.  Printed (``-s``): the reconnect time after the kill (median and max over
the tabs) and the test's own time.  Nothing waits by sleeping: every wait is on a condition.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import psutil
import pytest
from django.utils import timezone

from bench.stack import Browser, GameSocket
from deploy.render import render
from games.engine import get_game
from games.models import Action, Game, SeatClock, Table
from games.presenters import presenter_for
from games.tables import lifecycle
from remi_site.celery import app as celery_app
from remi_site.paths import BASE_DIR
from tests.conftest import (
    RedisServer,
    database_url_for_subprocesses,
    short_temp_dir,
    subprocess_env,
    wait_for,
)
from tests.games.clock_helpers import correspondence_game, fresh, live_clock
from tests.games.clock_stack import FAST_SWEEPS
from tests.games.test_clock_stack import set_deadline
from tests.site_processes import SiteProcess, daphne_serves, free_port
from tests.smtp_sink import SMTP_BACKEND, Inbox

DEPLOY = BASE_DIR / "deploy"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)

pytestmark = [
    pytest.mark.stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the production stack runs on PostgreSQL: set DATABASE_URL to a postgres:// URL",
    ),
    pytest.mark.skipif(
        NGINX is None, reason="nginx is not installed (bin/test installs Debian's as root)"
    ),
]

GAME = "basic-rummy"
# Block rummy: the hand ends when the stock runs out, so it lasts about sixty moves whatever
# the players choose.
OPTIONS = {"stock_empty": "block"}
PASSWORD = "green-joker-on-13"
START_TIMEOUT = 90  # programs starting on a loaded two-core machine
PLAY_TIMEOUT = 30  # one move, or one deadline, from the site
HOUR = 3600
VENV_BIN = Path(sys.executable).parent


# --- the stack ------------------------------------------------------------------------------


def exec_starts(unit: str) -> list[str]:
    """The ExecStart= lines of a deploy/systemd unit, in order."""
    lines = (DEPLOY / "systemd" / unit).read_text().splitlines()
    return [line.removeprefix("ExecStart=") for line in lines if line.startswith("ExecStart=")]


def production_command(line: str, env: dict[str, str], var_dir: Path) -> list[str]:
    """A unit's command line as this machine runs it: the virtualenv's programs, the test's
    var/ directory, and the unit's ${NAME}s filled from the environment, as systemd does."""
    line = line.replace("/srv/remi/app/.venv/bin/", f"{VENV_BIN}/")
    line = line.replace("/srv/remi/var", str(var_dir))
    return shlex.split(render(line, env))


def env_file() -> dict[str, str]:
    values = {}
    for line in (DEPLOY / "systemd" / "remi.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


@dataclass
class ProductionStack:
    url: str  # nginx: every request of the test goes here
    nginx: SiteProcess
    webs: list[SiteProcess]
    web_ports: list[int]
    worker: SiteProcess
    beat: SiteProcess
    started_at: float = field(default_factory=time.perf_counter)
    # daphnes sent SIGTERM (or SIGKILL) whose end the test has not seen yet
    stopping: list[SiteProcess] = field(default_factory=list)
    # When each part of the test ended (perf_counter), for the figures printed at the end.
    marks: dict[str, float] = field(default_factory=dict)

    def mark(self, part: str) -> None:
        self.marks[part] = time.perf_counter()

    def timings(self) -> str:
        said, since = [], self.started_at
        for part, at in self.marks.items():
            said.append(f"{part} {at - since:.1f} s")
            since = at
        return ", ".join(said)

    def settle(self) -> None:
        """Until every daphne told to stop has exited: none of them can save a move after."""
        while self.stopping:
            process = self.stopping.pop()
            assert process.popen is not None
            process.popen.wait(timeout=30)

    @property
    def processes(self) -> list[SiteProcess]:
        return [self.nginx, *self.webs, self.worker, self.beat]

    def wait_for(self, condition: Callable[[], Any], *, what: str, timeout: float) -> Any:
        """``tests.conftest.wait_for``, failing at once (with the logs) if nginx, the worker
        or beat died; a daphne may be down on purpose."""

        def alive_and() -> Any:
            dead = [p.name for p in (self.nginx, self.worker, self.beat) if p.exited()]
            if dead:
                pytest.fail(f"{', '.join(dead)} exited while waiting for {what}:\n{self.logs()}")
            return condition()

        return wait_for(alive_and, timeout=timeout, interval=0.05, what=what)

    def web_serves(self, n: int) -> None:
        url = f"http://127.0.0.1:{self.web_ports[n]}"
        self.wait_for(lambda: daphne_serves(url), what=f"daphne {n} at {url}", timeout=60)

    def logs(self, tail: int = 3000) -> str:
        """The end of each program's log, without the sweeps beat runs every second."""

        def said(process: SiteProcess) -> str:
            lines = process.output().splitlines()
            return "\n".join(line for line in lines if ".sweep_" not in line)[-tail:]

        return "\n".join(f"--- {p.name} log ---\n{said(p)}" for p in self.processes if p.popen)


def nginx_main_conf(prefix: Path) -> str:
    return (
        "worker_processes 1;\n"
        f"error_log {prefix}/logs/error.log;\n"
        "events {}\nhttp {\n"
        f"  access_log {prefix}/logs/access.log;\n"
        + "".join(
            f"  {kind}_temp_path {prefix}/tmp/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + f"  include {prefix}/remi.conf;\n}}\n"
    )


@pytest.fixture
def production(
    request: pytest.FixtureRequest,
    transactional_db: None,
    redis_server: RedisServer,
    smtp_sink: Inbox,
) -> Iterator[ProductionStack]:
    if redis_server.embedded:
        pytest.skip("the production stack runs on the Redis server: set REDIS_URL")
    began = time.perf_counter()
    var_dir = short_temp_dir("remi-prod-")
    var_dir.chmod(0o755)  # nginx's workers (nobody, when the test runs as root) read static/
    nginx_port, first_web = free_port(), free_port(2)
    web_ports = [first_web, first_web + 1]
    url = f"http://127.0.0.1:{nginx_port}"
    env = subprocess_env(
        **{
            **env_file(),
            "DATABASE_URL": database_url_for_subprocesses(),
            "REDIS_URL": redis_server.url,
            "SECRET_KEY": "production-stack-test-" + "k" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": url,
            "SITE_URL": url,
            "STATIC_ROOT": str(var_dir / "static"),
            "REMI_VAR_DIR": str(var_dir),
            # No TLS in front of this nginx: what HTTPS would need is off, nothing else.
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_COOKIES": "false",
            "SECURE_HSTS_SECONDS": "0",
            "EMAIL_BACKEND": SMTP_BACKEND,
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(smtp_sink.port),
            **FAST_SWEEPS,
            # A move whose process dies between its commit and the hand-off of the bot's
            # turn (the SIGKILL, a SIGTERM mid-move) is rescued by the bot sweep: it looks
            # for turns waiting longer than this, seconds rather than production's 20.
            "BOT_STUCK_SECONDS": "3",
        }
    )
    assert env["DEBUG"] == "false"

    # The release step, as remi-release.service runs it, before anything starts.
    for line in exec_starts("remi-release.service"):
        done = subprocess.run(
            production_command(line, env, var_dir),
            cwd=BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"

    (web_line,) = exec_starts("remi-web@.service")
    webs = [
        SiteProcess(
            f"daphne {n}",
            production_command(web_line.replace("800%i", str(port)), env, var_dir),
            env,
            var_dir / f"daphne{n}.log",
        )
        for n, port in enumerate(web_ports)
    ]
    (worker_line,) = exec_starts("remi-worker.service")
    (beat_line,) = exec_starts("remi-beat.service")
    worker = SiteProcess(
        "celery worker", production_command(worker_line, env, var_dir), env, var_dir / "worker.log"
    )
    beat = SiteProcess(
        "celery beat", production_command(beat_line, env, var_dir), env, var_dir / "beat.log"
    )

    for folder in ("logs", "tmp"):
        (var_dir / folder).mkdir()
    upstreams = " ".join(f"server 127.0.0.1:{port};" for port in web_ports)
    site = render(
        (DEPLOY / "nginx" / "remi.conf").read_text(),
        {
            "REMI_UPSTREAM_SERVERS": upstreams,
            "REMI_LISTEN": f"127.0.0.1:{nginx_port}",
            "REMI_SERVER_NAME": "127.0.0.1",
            "REMI_STATIC_ROOT": str(var_dir / "static"),
        },
    )
    (var_dir / "remi.conf").write_text(site)
    (var_dir / "nginx.conf").write_text(nginx_main_conf(var_dir))
    nginx = SiteProcess(
        "nginx",
        [
            str(NGINX),
            *("-p", str(var_dir), "-c", str(var_dir / "nginx.conf")),
            *("-e", str(var_dir / "logs" / "error.log")),
            *("-g", f"daemon off; pid {var_dir}/nginx.pid;"),
        ],
        env,
        var_dir / "nginx.log",
    )
    stack = ProductionStack(url, nginx, webs, web_ports, worker, beat, began)
    try:
        for process in stack.processes:
            process.start()
        for n in range(len(webs)):
            stack.web_serves(n)
        stack.wait_for(lambda: daphne_serves(url), what="the site through nginx", timeout=30)
        stack.wait_for(
            lambda: celery_app.control.ping(timeout=0.5),
            what="the Celery worker to answer a ping",
            timeout=START_TIMEOUT,
        )
        stack.mark("the release step and starting the stack")
        failed_before = request.session.testsfailed
        yield stack
        if request.session.testsfailed > failed_before:
            print(stack.logs(tail=20_000))  # what the programs said, for the failure above
    except BaseException:
        print(stack.logs())
        raise
    finally:
        for process in stack.processes:
            process.stop()
        celery_app.control.purge()  # on-time tasks of later deadlines, for games now gone
        shutil.rmtree(var_dir, ignore_errors=True)


# --- the players ----------------------------------------------------------------------------


def sign_up(url: str, username: str) -> Browser:
    """Through the real signup form, as a person: the form's CSRF token, then the post."""
    port = int(url.rsplit(":", 1)[1])
    browser = Browser(None, port)  # type: ignore[arg-type]  # only its port is used
    status, page = browser.request("GET", "/accounts/signup/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert status == 200 and token, (status, page[:500])
    fields = {
        "csrfmiddlewaretoken": token.group(1),
        "username": username,
        "email": f"{username}@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    status, page = browser.request("POST", "/accounts/signup/", fields)
    assert status == 302 and "sessionid" in browser.cookies, (status, page[:2000])
    status, page = browser.request("GET", "/profile/")
    assert status == 200 and username in page, status
    return browser


class Tab:
    """One open game page of a player: its socket through nginx, opened again (at the version
    it last showed) when it drops, as the page's socket does."""

    def __init__(self, browser: Browser, game_id: int) -> None:
        self.browser, self.game_id = browser, game_id
        self.shown = -1
        self.socket = self._connect(patience=10)

    def _connect(self, *, patience: float) -> GameSocket:
        deadline = time.monotonic() + patience
        while True:
            try:
                opened = GameSocket(self.browser, self.game_id, self.shown)
            except Exception:  # refused, 502 while nginx finds a live daphne, reset
                if time.monotonic() > deadline:
                    raise
            else:
                return opened
            # A client's pause before trying again, not a wait for anything in particular.
            time.sleep(0.02)

    def newest(self) -> int:
        received = [frame.version for frame in self.socket.received]
        self.shown = max([self.shown, *received])
        return self.shown

    def reconnect(self) -> float:
        """A new socket once the old one is closed; when it was open (perf_counter)."""
        self.newest()
        self.socket.close()
        self.socket = self._connect(patience=20)
        return time.perf_counter()

    def dropped(self, timeout: float) -> bool:
        with self.socket.changed:
            return self.socket.changed.wait_for(lambda: self.socket.closed, timeout)

    def wait_version(self, version: int, timeout: float = PLAY_TIMEOUT) -> None:
        """Until this page shows ``version`` (or later), reconnecting if its socket drops."""
        deadline = time.monotonic() + timeout
        while self.newest() < version:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(
                    f"a tab of game {self.game_id} never showed v{version} ({self.shown}, "
                    f"closed: {self.socket.closed}, at {time.time():.1f})"
                )
            if self.socket.wait_for(version, left) is None and self.socket.closed:
                self.reconnect()

    def send(self, fields: dict[str, str]) -> bool:
        """The move frame, as the page's form sends it; False if the socket was gone."""
        try:
            self.socket.socket.send(json.dumps(fields))
        except Exception:
            return False
        return True

    def close(self) -> None:
        self.socket.close()


@dataclass
class LiveGame:
    stack: ProductionStack
    game_id: int
    tabs: dict[int, list[Tab]]  # seat -> the player's two tabs; the bot's seat has none
    sent: dict[int, tuple[int, str]] = field(default_factory=dict)  # version -> (seat, move)

    def current(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def all_tabs(self) -> list[Tab]:
        return [tab for tabs in self.tabs.values() for tab in tabs]

    def everyone_sees(self, version: int) -> None:
        for tab in self.all_tabs():
            tab.wait_version(version)

    def send_move(self, game: Game) -> tuple[Game, Tab] | None:
        """The move of the seat to act in ``game`` sent over its first tab's socket, not
        waited for; None if it is the bot's turn."""
        (seat,) = game.to_act
        if seat not in self.tabs:
            return None
        engine = get_game(GAME)
        move = str(engine.timeout_action(engine.load(game.state), seat))
        self.sent[game.version] = (seat, move)
        tab = self.tabs[seat][0]
        tab.send(self.fields(game.version))
        return game, tab

    def fields(self, version: int) -> dict[str, str]:
        return {"version": str(version), "verb": "notation", "notation": self.sent[version][1]}

    def step(self) -> int:
        """One move (the bot's through the worker, or a player's over its socket, sent again
        on a new socket if the old one dropped before the move was in); every tab then shows
        it.  The new version."""
        # The version read once: the bot, which moves at once, may have played by a second
        # read, and the wait would then be for a move nobody sends.
        now = self.current()
        sent = self.send_move(now)
        if sent is None:
            before = now.version
            try:
                game = self.stack.wait_for(
                    lambda: (g := self.current()).version > before and g,
                    what=f"the bot's move after v{before}",
                    timeout=PLAY_TIMEOUT,
                )
            except pytest.fail.Exception:
                stuck = self.current()  # what the stuck-bot sweep reads
                print(
                    f"the bot's turn at v{stuck.version}: to_act {stuck.to_act}, waiting_for_bot "
                    f"{stuck.waiting_for_bot}, updated_at {stuck.updated_at}, now {timezone.now()}"
                )
                raise
        else:
            game = self.answered(*sent)
        self.everyone_sees(game.version)
        return game.version

    def answered(self, game: Game, tab: Tab, *, dropped: bool = False) -> Game:
        """The game once the move sent at ``game``'s version is in and its tab shows it.
        ``dropped``: the tab's socket was already opened again after the move went out."""
        before = game.version
        deadline = time.monotonic() + PLAY_TIMEOUT
        while True:
            if dropped:
                # Once the daphne that had the move is gone, the move either is in the
                # database or never will be: sent again only then, so never twice.
                self.stack.settle()
                if self.current().version == before:
                    tab.send(self.fields(before))
            left = max(0.0, deadline - time.monotonic())
            if tab.socket.wait_for(before + 1, left) is not None:
                return self.current()
            if not tab.socket.closed or time.monotonic() > deadline:
                pytest.fail(f"no answer to the move at v{before}:\n{self.stack.logs()}")
            tab.reconnect()
            dropped = True

    def play_until(self, done: Callable[[Game], bool]) -> Game:
        while not done(game := self.current()):
            if game.status != Game.Status.PLAYING:
                pytest.fail(f"the game ended at v{game.version} before the test was done")
            self.step()
        return game


def web_holding_sockets(stack: ProductionStack, count: int) -> int:
    """The daphne holding the game's ``count`` open sockets (nginx sends a game's sockets to one
    process), found by its established connections from nginx."""
    held = []
    for process, port in zip(stack.webs, stack.web_ports, strict=True):
        connections = []
        if process.running:
            assert process.popen is not None
            connections = psutil.Process(process.popen.pid).net_connections(kind="tcp")
        held.append(
            sum(c.status == psutil.CONN_ESTABLISHED and c.laddr.port == port for c in connections)
        )
    assert sorted(held) == [0, count], held  # every tab on the one process
    return held.index(count)


def check_move_log(live: LiveGame) -> tuple[int, int]:
    """(lost, doubled): every version once, 1 to the last; every move sent, at its version."""
    game = live.current()
    actions = list(Action.objects.filter(game_id=live.game_id).order_by("version", "pk"))
    versions = [a.version for a in actions]
    doubled = len(versions) - len(set(versions))
    by_version = {a.version: (a.seat, a.notation) for a in actions}
    lost = sum(by_version.get(v + 1) != sent for v, sent in live.sent.items())
    lost += len(set(range(1, game.version + 1)) - set(versions))
    assert versions == list(range(1, game.version + 1)), versions
    return lost, doubled


# --- the test -------------------------------------------------------------------------------


def test_through_nginx_two_daphnes_survive_a_kill_and_a_rolling_restart(production):
    stack = production
    alice_browser, bob_browser = sign_up(stack.url, "alice"), sign_up(stack.url, "bob")
    from accounts.models import User

    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    stack.mark("signing up")

    # A correspondence move, and the deadline that answers it (beat's sweep, the worker).
    slow = correspondence_game(
        alice,
        bob,
        game_type=GAME,
        options=OPTIONS,
        move_seconds=HOUR,
        on_timeout=Table.OnTimeout.AUTOPLAY,
    )
    browsers = {
        seat.position: alice_browser if seat.user_id == alice.pk else bob_browser
        for seat in slow.table.seats.all()
    }
    (mover,) = fresh(slow).to_act
    tabs = {seat: [Tab(browser, slow.pk)] for seat, browser in browsers.items()}
    correspondence = LiveGame(stack, slow.pk, tabs)
    correspondence.play_until(lambda g: g.to_act != [mover])
    (waiting,) = fresh(slow).to_act
    turn_began = fresh(slow).version
    set_deadline(live_clock(slow, waiting), timezone.now() + timedelta(seconds=1), allowance=HOUR)
    clock = stack.wait_for(
        lambda: SeatClock.objects.filter(
            game=slow, seat=waiting, turn=turn_began, ended_at__isnull=False
        ).first(),
        what="the deadline sweep to play the waiting seat's turn",
        timeout=PLAY_TIMEOUT,
    )
    assert clock.timed_out
    answered = fresh(slow)
    assert answered.to_act == [mover] and answered.version > turn_began
    causes = set(
        Action.objects.filter(game=slow, version__gt=turn_began).values_list("cause", flat=True)
    )
    assert causes == {Action.Cause.AUTOPLAY}
    correspondence.everyone_sees(answered.version)
    for tab in correspondence.all_tabs():
        tab.close()
    stack.mark("the correspondence move and its deadline")

    # The live game: Alice, a bot and Bob, each player with two tabs open.
    table = lifecycle.create_table(
        alice, game_type=GAME, options=OPTIONS, seat_count=3, bots=["easy"]
    )
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    seats = {seat.user_id: seat.position for seat in table.seats.exclude(user=None)}
    live = LiveGame(
        stack,
        game.pk,
        {
            seats[alice.pk]: [Tab(alice_browser, game.pk) for _ in range(2)],
            seats[bob.pk]: [Tab(bob_browser, game.pk) for _ in range(2)],
        },
    )
    live.everyone_sees(game.version)
    # The page's scripts come through nginx, the game's own among them: collectstatic took
    # it from its plug-in's static folder, under a hashed name.
    status, page = alice_browser.request("GET", f"/games/{game.pk}/")
    scripts = re.findall(r'<script src="(/static/[^"]+)"', page)
    own = presenter_for(GAME).script.removesuffix(".js")
    assert status == 200 and any(src.startswith(f"/static/{own}.") for src in scripts), scripts
    for src in scripts:
        assert alice_browser.request("GET", src)[0] == 200, src
    live.play_until(lambda g: g.version >= 6 and g.to_act[0] in live.tabs)

    stack.mark("the live game to v6")
    # SIGKILL the game's daphne by its pid, right after a player's move went out.
    victim = web_holding_sockets(stack, len(live.all_tabs()))
    sent = live.send_move(live.current())
    assert sent is not None
    killed_at = time.perf_counter()
    popen = stack.webs[victim].popen
    assert popen is not None
    stack.stopping.append(stack.webs[victim])
    os.kill(popen.pid, signal.SIGKILL)

    def reconnected(tab: Tab) -> float:
        assert tab.dropped(timeout=15), "nginx kept a socket to a killed daphne open"
        return tab.reconnect() - killed_at

    with ThreadPoolExecutor(max_workers=len(live.all_tabs())) as pool:
        reconnects = list(pool.map(reconnected, live.all_tabs()))
    popen.wait(timeout=10)
    assert popen.returncode == -signal.SIGKILL
    live.everyone_sees(live.answered(*sent, dropped=True).version)
    after_kill = live.step()
    assert web_holding_sockets(stack, len(live.all_tabs())) == 1 - victim
    stack.webs[victim].start()
    stack.web_serves(victim)
    live.play_until(lambda g: g.version >= after_kill + 2)
    stack.mark("the kill, the reconnects, the daphne started again")

    # A rolling restart: each daphne in turn stopped gracefully while moves are played, then
    # started again; moves are played on it afterwards too.
    for n, web in enumerate(stack.webs):
        stack.stopping.append(web)
        web.send(signal.SIGTERM)
        start = live.current().version
        live.play_until(lambda g, start=start: g.version >= start + 2)
        stack.mark(f"daphne {n}: moves while it stops")
        stack.settle()
        assert web.popen is not None
        assert web.popen.returncode in (0, -signal.SIGTERM), (web.name, web.popen.returncode)
        stack.mark(f"daphne {n}: stopped")
        web.start()
        stack.web_serves(n)
        stack.mark(f"daphne {n}: started")
        start = live.current().version
        live.play_until(lambda g, start=start: g.version >= start + 2)

    stack.mark("the rolling restart")
    final = live.play_until(lambda g: g.status == Game.Status.FINISHED)
    live.everyone_sees(final.version)
    stack.mark("the game to its end")
    lost, doubled = check_move_log(live)
    assert (lost, doubled) == (0, 0)
    for tab in live.all_tabs():
        tab.close()

    elapsed = time.perf_counter() - stack.started_at
    ms = [seconds * 1000 for seconds in reconnects]
    print(
        f"\nproduction stack: game {final.pk} of {GAME} finished at v{final.version} "
        f"({len(live.sent)} moves sent by the players, the rest by the bot); "
        f"reconnect after the SIGKILL over {len(ms)} tabs: median {statistics.median(ms):.0f} ms, "
        f"max {max(ms):.0f} ms; moves lost {lost}, doubled {doubled}; "
        f"the test up to here: {elapsed:.1f} s ({stack.timings()})"
    )
    with contextlib.suppress(Exception):
        alice_browser.close()
        bob_browser.close()
