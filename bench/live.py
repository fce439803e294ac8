"""Live play through the real stack, side by side with the floor the stack itself sets.

Starts ``--web-procs`` daphne processes (``bench/floor_asgi.py``: the site plus the floor's
route) on a fresh database in a temporary directory (DATABASE_URL / REDIS_URL if set;
otherwise SQLite there and an embedded Redis on a unix socket), creates the players and
``--tables`` tables of ``--players`` seats of ``--game``, gives each player a logged-in
session (written straight into the session store: the login form's slow password hash is not
what is measured) and opens one game WebSocket per player, spread over the daphne processes
as a load balancer would, plus ``--spectators`` anonymous sockets on the first table's game.

**Ours.**  Each table is played by its own driver: it chooses the next move with the engine
(``random_action`` on the position it read from the database once and then follows by
applying its own accepted moves, so that no read of the driver's counts against the site),
sends it over the mover's own game socket as the page does (``--over http``: posts it to the
act endpoint, as a page without an open socket does, with htmx, CSRF header and session
cookie) and waits until every other seat's socket (and every spectator's) has the frame with
the new version; then the next move.  A finished game is followed by the next one of the series.
``--advance N`` first plays N random moves per table through the service layer, unwatched, so
that the measured moves come from games under way (a longer discard row, melds on the table)
rather than fresh deals.

**The floor.**  The same number of sockets in the same groups on the same daphne processes
and channel layer, but on ``/ws/floor/``: the mover's socket sends a tiny frame, a bare
consumer ``group_send``s it, every member sends it on.  No database, no rendering.  The floor's
tables move at the pace ours sustained (each table one move per ``tables / (ours' moves/s)``
seconds), so both are measured at the same load; ``--floor-pace eager`` lets them run flat out.

**The durable floor** (``--durable-floor``, PostgreSQL only) is the floor plus what any move
that is never lost nor applied twice must commit before it is announced: the game's row moved
from the version before to the new one with its state rewritten (each table's real state, so
its size is a real position's) and a row appended to the move log, through psycopg's async
pool (``bench/floor_asgi.py``).  It is the least a site that keeps its games in PostgreSQL can
cost on these cores, whatever it renders or does not.

**Paced.**  By default each table of ours moves again as soon as its last move reached every
seat, so the stack runs saturated and the latencies are mostly queueing.  ``--rate R`` paces
ours at R moves/s over all tables (each table once per ``tables / R`` seconds, from a random
offset) and the floor at the same R: the latency a player sees at a load the stack carries.

Printed per phase: ms from the move to every other seat's socket (median, p99, max), to each
spectator, moves/s sustained, the daphne processes' CPU seconds per move; for ours the
resident memory each open idle socket adds; and ours / floor for p50 and p99.  With local
PostgreSQL or Redis servers, their CPU per move too.  ``--route table`` puts every client of a
table on one process (a proxy routing by game); the default spreads them in turn.

    python bench/live.py [--game remi] [--tables 4] [--players 4] [--spectators 0]
                         [--web-procs 1] [--moves 30] [--advance 0] [--port 8500]
                         [--seed 0] [--route spread|table] [--rate R]
                         [--no-floor] [--durable-floor] [--floor-pace ours|eager]
                         [--over socket|http]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import secrets
import statistics
import string
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    HOST,
    VERSION,
    Browser,
    Stack,
    current_game,
    describe_database,
    describe_redis,
    make_users,
    percentile,
    running_stack,
)

FRAME_TIMEOUT = 15.0  # seconds a socket may take to show a move before it counts as missed
CONNECTS_AT_ONCE = 16  # sockets opened concurrently while setting up
ACCESS_LOG = re.compile(r"^[\d.]+:\d+ - - \[")  # daphne's line per request or socket


# --- sockets ---------------------------------------------------------------------------------


class Socket:
    """One WebSocket read by its own task: when each version (the status line's vN) arrived."""

    def __init__(self, url: str, origin: str, cookie: str | None) -> None:
        self.url, self.origin, self.cookie = url, origin, cookie
        self.arrivals: list[tuple[int, float]] = []  # (version, perf_counter), newest last
        self.waiters: list[tuple[int, asyncio.Future[float]]] = []
        self.frames = 0
        self.sizes: Counter[int] = Counter()  # bytes of the frames that showed each version
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        headers = {"Cookie": self.cookie} if self.cookie else None
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers=headers,
            open_timeout=60,
            max_size=2**22,
            compression=None,
            ping_interval=None,
        )
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for message in self.ws:
                now = time.perf_counter()
                self.frames += 1
                text = message if isinstance(message, str) else message.decode()
                found = VERSION.search(text)
                if not found:
                    continue
                version = int(found.group(1))
                self.sizes[version] += (
                    len(message) if isinstance(message, bytes) else len(text.encode())
                )
                if self.arrivals and version <= self.arrivals[-1][0]:
                    continue
                self.arrivals.append((version, now))
                still = []
                for wanted, future in self.waiters:
                    if version >= wanted:
                        if not future.done():
                            future.set_result(now)
                    else:
                        still.append((wanted, future))
                self.waiters = still

    async def wait_for(self, version: int, timeout: float) -> float | None:
        """When the first frame at ``version`` or later arrived (perhaps already), or None."""
        found = next((at for seen, at in self.arrivals if seen >= version), None)
        if found is not None:
            return found
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiters.append((version, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None

    async def send(self, text: str) -> None:
        await self.ws.send(text)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 5)


async def open_all(sockets: list[Socket]) -> None:
    limit = asyncio.Semaphore(CONNECTS_AT_ONCE)

    async def one(socket: Socket) -> None:
        async with limit:
            for attempt in range(3):  # a refused handshake under load: again, then give up
                try:
                    await socket.open()
                    return
                except Exception:
                    if attempt == 2:
                        raise
                    await asyncio.sleep(1.0)

    await asyncio.gather(*(one(s) for s in sockets))


async def close_all(sockets: list[Socket]) -> None:
    await asyncio.gather(*(s.close() for s in sockets))


# --- players ---------------------------------------------------------------------------------


@dataclass
class Player:
    browser: Browser
    session_cookie: str


def logged_in(stack: Stack, user: Any, port: int) -> Player:
    """A browser whose session is logged in as ``user`` (what the login form would store),
    with a CSRF cookie Django accepts (an unmasked 32-character secret)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    browser = Browser(stack, port)
    alphabet = string.ascii_letters + string.digits
    browser.cookies["sessionid"] = session.session_key
    browser.cookies["csrftoken"] = "".join(secrets.choice(alphabet) for _ in range(32))
    browser.tab = secrets.token_urlsafe(12)
    return Player(browser, f"sessionid={session.session_key}")


def game_socket(player: Player | None, port: int, game_id: int, version: int) -> Socket:
    origin = f"http://{HOST}:{port}"
    url = f"ws://{HOST}:{port}/ws/games/{game_id}/?version={version}"
    if player is not None:
        url += f"&tab={player.browser.tab}"  # the page's name, as the page's socket sends it
    return Socket(url, origin, player.session_cookie if player else None)


def floor_socket(port: int, group: str, route: str = "floor") -> Socket:
    return Socket(f"ws://{HOST}:{port}/ws/{route}/{group}/", f"http://{HOST}:{port}", None)


def prepare_durable_floor(runs: list[TableRun]) -> None:
    """In a worker thread: the durable floor's tables, one game row per table holding that
    table's current game state (its real size) at version 0, and an empty move log."""
    from django.db import close_old_connections, connection

    from bench.floor_schema import DURABLE_GAMES, DURABLE_MOVES, DURABLE_SCHEMA
    from games.models import Game

    close_old_connections()
    states = dict(Game.objects.filter(pk__in=[r.game_id for r in runs]).values_list("pk", "state"))
    with connection.cursor() as cursor:
        for statement in DURABLE_SCHEMA:
            cursor.execute(statement)
        cursor.execute(f"TRUNCATE {DURABLE_GAMES}, {DURABLE_MOVES}")
        for run in runs:
            cursor.execute(
                f"INSERT INTO {DURABLE_GAMES} (id, version, state) VALUES (%s, 0, %s::jsonb)",
                [run.table_id, json.dumps(states[run.game_id])],
            )


# --- results ---------------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    to_all: list[float] = field(default_factory=list)  # ms per move: the slowest other seat
    to_each: list[float] = field(default_factory=list)  # ms per move and other seat
    to_spectators: list[float] = field(default_factory=list)  # ms per move: slowest spectator
    post: list[float] = field(default_factory=list)  # ms: the act POST's round trip
    sizes: list[int] = field(default_factory=list)  # bytes per move and other seat
    # ms to every other seat by the move's verb (ours only): which moves make the tail.
    by_verb: dict[str, list[float]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    cpu: float = 0.0  # daphne CPU seconds
    redis_cpu: float | None = None
    driver_cpu: float = 0.0
    # The local PostgreSQL and Redis servers' processes, when the stack uses them.
    servers_cpu: dict[str, float] = field(default_factory=dict)

    @property
    def moves(self) -> int:
        return self.counts["moves"] + self.counts["moves missed by a socket"]

    @property
    def rate(self) -> float:
        return self.moves / self.elapsed if self.elapsed else 0.0


def cpu_seconds(processes: list[Any]) -> float:
    import psutil

    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = psutil.Process(process.pid).cpu_times()
            total += times.user + times.system
    return total


def server_cpu(stack: Stack) -> dict[str, dict[int, float]]:
    """CPU seconds of each of this machine's PostgreSQL and Redis server processes, by name
    and pid, for the servers the stack uses on loopback: their CPU is part of what a move
    costs on these cores.  Short-lived processes (a connection opened and closed within the
    phase) are missed, so the figure is a lower bound."""
    import psutil

    wanted = {}
    if stack.database_url.startswith("postgres") and "127.0.0.1" in stack.database_url:
        wanted["postgres"] = "PostgreSQL"
    if (os.environ.get("REDIS_URL") or "").startswith("redis://127.0.0.1"):
        wanted["redis-server"] = "Redis"
    found: dict[str, dict[int, float]] = {label: {} for label in wanted.values()}
    for process in psutil.process_iter(["name", "cpu_times"]):
        label = wanted.get(process.info["name"] or "")
        times = process.info["cpu_times"]
        if label and times is not None:
            found[label][process.pid] = times.user + times.system
    return found


def rss_bytes(processes: list[Any]) -> int:
    import psutil

    total = 0
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += psutil.Process(process.pid).memory_info().rss
    return total


# --- the tables ------------------------------------------------------------------------------


@dataclass
class TableRun:
    table_id: int
    players: list[Player]
    ports: list[int]  # each player's daphne
    spectator_ports: list[int]
    seed: int
    game_id: int = 0
    version: int = 0
    seats: list[Socket] = field(default_factory=list)
    spectators: list[Socket] = field(default_factory=list)
    # The position after the driver's last accepted move, as (game, version, state): the
    # engine is deterministic, so the driver applies its own moves instead of reading each
    # position back (a read of the whole state per move that PostgreSQL's CPU, and the
    # driver's, would otherwise count against the site).
    known: tuple[int, int, Any] | None = None

    def refresh_game(self) -> None:
        game = current_game(self.table_id)
        self.game_id, self.version = game.pk, game.version

    def sockets(self) -> list[Socket]:
        return [
            *(
                game_socket(p, port, self.game_id, self.version)
                for p, port in zip(self.players, self.ports, strict=True)
            ),
            *(game_socket(None, port, self.game_id, self.version) for port in self.spectator_ports),
        ]


def choose_and_post(run: TableRun, engine_key: str, rng: random.Random) -> dict[str, Any]:
    """In a worker thread: read the game, choose a move, post it as the seat's browser."""
    from django.db import OperationalError, connection

    for attempt in range(5):
        try:
            return _choose_and_post(run, engine_key, rng)
        except OperationalError:  # a shared server out of connections for a moment
            connection.close()
            if attempt == 4:
                raise
            time.sleep(1.0)
    raise AssertionError("unreachable")


def _choose_and_post(run: TableRun, engine_key: str, rng: random.Random) -> dict[str, Any]:
    chosen = _choose(run, engine_key, rng)
    if "fields" not in chosen:
        return chosen
    game_id, seat, fields = chosen["game_id"], chosen["seat"], chosen["fields"]
    started = time.perf_counter()
    status, body = run.players[seat].browser.request(
        "POST", f"/games/{game_id}/act/", fields, htmx=True
    )
    answered = time.perf_counter()
    shown = VERSION.search(body)
    ok = status == 200 and shown is not None and int(shown.group(1)) == chosen["version"]
    return _moved(run, chosen, ok, started, answered, f"HTTP {status}")


def _moved(
    run: TableRun, chosen: dict[str, Any], ok: bool, started: float, answered: float, said: str
) -> dict[str, Any]:
    """The move's record; the driver follows its position when it went in."""
    run.known = None
    if ok and chosen["after"] is not None:
        run.known = (chosen["game_id"], chosen["version"], chosen["after"])
    return {
        "seat": chosen["seat"],
        "version": chosen["version"],
        "started": started,
        "answered": answered,
        "ok": ok,
        "error": "" if ok else f"{chosen['fields']['notation']}: {said}",
        "verb": chosen["fields"].get("notation", "").split(" ", 1)[0],
    }


def choose(run: TableRun, engine_key: str, rng: random.Random) -> dict[str, Any]:
    """In a worker thread: the next move of the table, chosen as :func:`choose_and_post`
    chooses it, to be sent over the mover's socket."""
    return _choose(run, engine_key, rng)


def _choose(run: TableRun, engine_key: str, rng: random.Random) -> dict[str, Any]:
    """The table's next move: ``fields`` as the page sends them, the ``seat`` and the
    ``version`` it makes, and the position ``after`` it (None when the game then ends); or
    ``over`` / ``next`` when the game is over."""
    from django.db import close_old_connections

    from games.engine import get_game
    from games.models import Game

    engine = get_game(engine_key)
    if run.known is None or run.known[0] != run.game_id:
        close_old_connections()
        game = Game.objects.get(pk=run.game_id)
        if game.status != Game.Status.PLAYING or not game.to_act:
            status, _ = run.players[0].browser.request(
                "POST", f"/games/{game.pk}/next/", {}, htmx=True
            )
            following = current_game(run.table_id)
            if status != 200 or following.pk == game.pk:
                return {"over": True}
            return {"next": (following.pk, following.version)}
        run.known = (game.pk, game.version, engine.load(game.state))
    game_id, version, state = run.known
    seat = min(engine.to_act(state))
    action = engine.random_action(state, seat, rng)
    after, _ = engine.apply(state, seat, action)
    return {
        "game_id": game_id,
        "seat": seat,
        "version": version + 1,
        "fields": {"version": str(version), "verb": "notation", "notation": str(action)},
        # Followed by the driver once accepted; else the database says what follows.
        "after": after if engine.to_act(after) and not engine.is_over(after) else None,
    }


async def send_over_socket(
    run: TableRun, args: argparse.Namespace, pool: ThreadPoolExecutor, rng: random.Random
) -> dict[str, Any]:
    """Choose the table's next move and send it over the mover's own game socket, as the
    page does (games/play/consumers.py); answered once that socket shows the new version."""
    loop = asyncio.get_running_loop()
    chosen = await loop.run_in_executor(pool, choose, run, args.game, rng)
    if "fields" not in chosen:
        return chosen
    mine = run.seats[chosen["seat"]]
    started = time.perf_counter()
    await mine.send(json.dumps(chosen["fields"]))
    answered = await mine.wait_for(chosen["version"], FRAME_TIMEOUT)
    ok = answered is not None
    return _moved(run, chosen, ok, started, answered or time.perf_counter(), "no answer")


async def play_ours(
    runs: list[TableRun], args: argparse.Namespace, pool: ThreadPoolExecutor, phase: Phase
) -> None:
    loop = asyncio.get_running_loop()

    # With --rate, each table moves once per interval (from a random offset, so the tables'
    # moves spread over it), or as soon as its last move has reached everyone if later.
    interval = len(runs) / args.rate if args.rate else None

    async def table(run: TableRun) -> None:
        rng = random.Random(run.seed)
        played = 0
        due = time.perf_counter() + (rng.random() * interval if interval else 0.0)
        while played < args.moves:
            if interval:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                due = max(due + interval, time.perf_counter())
            if args.over == "socket":
                moved = await send_over_socket(run, args, pool, rng)
            else:
                moved = await loop.run_in_executor(pool, choose_and_post, run, args.game, rng)
            if moved.get("over"):
                break
            if "next" in moved:
                await close_all(run.seats + run.spectators)
                phase.counts["games dealt"] += 1
                run.game_id, run.version = moved["next"]
                fresh = run.sockets()
                run.seats, run.spectators = fresh[: len(run.players)], fresh[len(run.players) :]
                await open_all(fresh)
                continue
            played += 1
            if not moved["ok"]:
                phase.counts["refused or stale"] += 1
                phase.errors.append(f"table {run.table_id}: {moved['error']}")
                continue
            others = [s for i, s in enumerate(run.seats) if i != moved["seat"]]
            version, started = moved["version"], moved["started"]
            seen = await asyncio.gather(
                *(s.wait_for(version, FRAME_TIMEOUT) for s in others + run.spectators)
            )
            run.version = version
            if any(at is None for at in seen):
                phase.counts["moves missed by a socket"] += 1
                continue
            each = [(at - started) * 1000 for at in seen[: len(others)]]
            phase.to_all.append(max(each))
            phase.by_verb.setdefault(moved.get("verb", ""), []).append(max(each))
            phase.to_each.extend(each)
            phase.sizes.extend(s.sizes[version] for s in others)
            if run.spectators:
                phase.to_spectators.append((max(seen[len(others) :]) - started) * 1000)
            phase.post.append((moved["answered"] - started) * 1000)
            phase.counts["moves"] += 1

    await asyncio.gather(*(table(run) for run in runs))


async def play_floor(
    runs: list[TableRun],
    sockets: list[list[Socket]],
    args: argparse.Namespace,
    interval: float | None,
    phase: Phase,
) -> None:
    async def table(n: int, run: TableRun) -> None:
        rng = random.Random(run.seed)
        seats = sockets[n][: len(run.players)]
        spectators = sockets[n][len(run.players) :]
        start = time.perf_counter() + (rng.random() * interval if interval else 0.0)
        for move in range(1, args.moves + 1):
            if interval:
                await asyncio.sleep(max(0.0, start + (move - 1) * interval - time.perf_counter()))
            mover = (move - 1) % len(seats)
            started = time.perf_counter()
            await seats[mover].send(f'<p title="Moves played">v{move}</p>')
            others = [s for i, s in enumerate(seats) if i != mover]
            seen = await asyncio.gather(
                *(s.wait_for(move, FRAME_TIMEOUT) for s in others + spectators)
            )
            if any(at is None for at in seen):
                phase.counts["moves missed by a socket"] += 1
                continue
            each = [(at - started) * 1000 for at in seen[: len(others)]]
            phase.to_all.append(max(each))
            phase.to_each.extend(each)
            if spectators:
                phase.to_spectators.append((max(seen[len(others) :]) - started) * 1000)
            phase.counts["moves"] += 1

    await asyncio.gather(*(table(n, run) for n, run in enumerate(runs)))


# --- setting up and reporting ----------------------------------------------------------------


def seat_counts(text: str, tables: int) -> list[int]:
    cycle = [int(n) for n in text.split(",")]
    if any(not 2 <= n <= 4 for n in cycle):
        raise SystemExit("--players: seats per table are 2 to 4 (e.g. 4, or 2,3,4 in turn)")
    return [cycle[i % len(cycle)] for i in range(tables)]


def make_tables(stack: Stack, args: argparse.Namespace, seats: list[int]) -> list[TableRun]:
    from games.tables import lifecycle

    prefix = f"bench{random.Random(args.seed).randrange(10**6)}-{int(time.time()) % 10**6}-"
    users = make_users(prefix, sum(seats))
    runs, next_user, socket_index = [], 0, 0
    by_table = args.route == "table"
    for n, count in enumerate(seats):
        people = users[next_user : next_user + count]
        next_user += count
        # A long series, so a table that finishes a game deals the next one.
        try:
            table = lifecycle.create_table(
                people[0], game_type=args.game, seat_count=count, options={"series_games": 1000}
            )
        except Exception:  # a game without that option: its own series length
            table = lifecycle.create_table(people[0], game_type=args.game, seat_count=count)
        for person in people[1:]:
            lifecycle.join_table(table, person)
        game = lifecycle.start_table(table, people[0])
        advance(game, args.advance, random.Random(args.seed * 1000 + n + 1))
        ports, players = [], []
        for person in people:
            port = stack.ports[(n if by_table else socket_index) % len(stack.ports)]
            socket_index += 1
            ports.append(port)
            players.append(logged_in(stack, person, port))
        watching = args.spectators if n == 0 else 0
        spectator_ports = [
            stack.ports[(n if by_table else socket_index + i) % len(stack.ports)]
            for i in range(watching)
        ]
        socket_index += watching
        run = TableRun(table.pk, players, ports, spectator_ports, args.seed * 1000 + n)
        run.refresh_game()
        runs.append(run)
    return runs


def advance(game: Any, moves: int, rng: random.Random) -> None:
    """Play ``moves`` random moves of ``game`` (dealing the next game of the series when one
    ends) before anyone watches: the measured moves then come from games under way."""
    from games.engine import get_game
    from games.models import Game
    from games.play import services
    from games.tables import lifecycle

    engine = get_game(game.table.game_type)
    for _ in range(moves):
        game = Game.objects.select_related("table").get(pk=game.pk)
        if game.status != Game.Status.PLAYING or not game.to_act:
            game = lifecycle.next_game(game.table)
            continue
        seat = min(game.to_act)
        action = engine.random_action(engine.load(game.state), seat, rng)
        services.play(game.pk, seat, str(action), game.version)


def print_phase(phase: Phase, floors: Sequence[Phase] = ()) -> None:
    print(f"{phase.name}: {phase.moves} moves in {phase.elapsed:.1f} s = {phase.rate:.1f} moves/s")
    counts = ", ".join(f"{k} {v}" for k, v in sorted(phase.counts.items()))
    print(f"  counts: {counts}")
    for error in phase.errors[:3]:
        print(f"  refused: {error}")
    if not phase.to_all:
        print("  no move was measured")
        return

    def line(label: str, values: list[float]) -> None:
        if values:
            print(
                f"  {label:<34} {len(values):>6} {statistics.median(values):>9.1f} "
                f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}"
            )

    print(f"  {'ms from the move':<34} {'count':>6} {'median':>9} {'p99':>8} {'max':>8}")
    line("to every other seat's socket", phase.to_all)
    line("to each other seat's socket", phase.to_each)
    line("to every spectator", phase.to_spectators)
    line("the move's answer (the mover)", phase.post)
    for verb, values in sorted(phase.by_verb.items(), key=lambda kv: -len(kv[1])):
        line(f"  to every other seat, {verb or '?'}", values)
    if phase.sizes:
        sizes = phase.sizes
        print(
            f"  bytes sent per move to each other seat: median {statistics.median(sizes):,.0f},"
            f" p90 {percentile(sizes, 0.9):,.0f}, mean {statistics.fmean(sizes):,.0f}"
        )
    moves = max(phase.moves, 1)
    cpu = f"  CPU per move: daphne {phase.cpu / moves * 1000:.2f} ms"
    if phase.redis_cpu is not None:
        cpu += f", embedded Redis {phase.redis_cpu / moves * 1000:.2f} ms"
    for label, seconds in phase.servers_cpu.items():
        cpu += f", {label} {seconds / moves * 1000:.2f} ms (at least)"
    cpu += f", this driver {phase.driver_cpu / moves * 1000:.2f} ms"
    print(cpu)
    for floor in floors:
        for label, ours, base in (
            ("to every other seat", phase.to_all, floor.to_all),
            ("to every spectator", phase.to_spectators, floor.to_spectators),
        ):
            if ours and base:
                p50 = statistics.median(ours) / statistics.median(base)
                p99 = percentile(ours, 0.99) / percentile(base, 0.99)
                print(f"  ours / {floor.name}, {label}: p50 {p50:.1f}x, p99 {p99:.1f}x")
        if floor.cpu and phase.cpu:
            ratio = (phase.cpu / max(phase.moves, 1)) / (floor.cpu / max(floor.moves, 1))
            print(f"  ours / {floor.name}, daphne CPU per move: {ratio:.1f}x")


async def measure(
    stack: Stack, runs: list[TableRun], args: argparse.Namespace, pool: ThreadPoolExecutor
) -> tuple[Phase, list[Phase], float]:
    web = stack.web_processes()
    redis = [stack.processes["redis"]] if "redis" in stack.processes else []

    async def phase_run(phase: Phase, coroutine: Any) -> None:
        cpu0, redis0, driver0 = cpu_seconds(web), cpu_seconds(redis), time.process_time()
        servers0 = server_cpu(stack)
        began = time.perf_counter()
        await coroutine
        phase.elapsed = time.perf_counter() - began
        phase.cpu = cpu_seconds(web) - cpu0
        phase.redis_cpu = cpu_seconds(redis) - redis0 if redis else None
        phase.driver_cpu = time.process_time() - driver0
        phase.servers_cpu = {
            label: sum(seconds - servers0[label].get(pid, 0.0) for pid, seconds in now.items())
            for label, now in server_cpu(stack).items()
        }

    # Warm every process up (imports, templates, the first queries), then the baseline.
    warm = [game_socket(None, port, runs[0].game_id, -1) for port in stack.ports]
    warm += [game_socket(runs[0].players[0], port, runs[0].game_id, -1) for port in stack.ports]
    await open_all(warm)
    await asyncio.gather(*(s.wait_for(0, FRAME_TIMEOUT) for s in warm))
    await close_all(warm)
    await asyncio.sleep(1.0)
    rss0 = rss_bytes(web)
    for run in runs:
        fresh = run.sockets()
        run.seats, run.spectators = fresh[: len(run.players)], fresh[len(run.players) :]
    everyone = [s for run in runs for s in run.seats + run.spectators]
    opened = time.perf_counter()
    await open_all(everyone)
    open_s = time.perf_counter() - opened
    await asyncio.sleep(2.0)
    rss1 = rss_bytes(web)
    per_socket = (rss1 - rss0) / len(everyone)
    print(
        f"sockets: {len(everyone)} opened in {open_s:.1f} s; resident memory of the daphne "
        f"processes {rss0 / 2**20:.0f} MiB before, {per_socket / 1024:.1f} KiB more per open "
        "idle socket"
    )

    ours = Phase("ours")
    await phase_run(ours, play_ours(runs, args, pool, ours))
    grown = rss_bytes(web) - rss1
    await close_all(everyone)
    print_phase(ours)  # now, in case the floor fails
    # What the processes keep once they have played (reused parts, kept positions, caches).
    print(f"  resident memory after the moves: {grown / 2**20:+.0f} MiB beside the open sockets")

    floors = []
    interval = None
    if args.floor_pace == "ours" and ours.rate > 0:
        interval = len(runs) / (args.rate or ours.rate)
    routes = [] if args.no_floor else [("floor", "floor")]
    if args.durable_floor:
        await asyncio.get_running_loop().run_in_executor(pool, prepare_durable_floor, runs)
        routes.append(("floor-durable", "durable floor"))
    for route, name in routes:
        floor = Phase(name)
        floor_sockets = [
            [
                floor_socket(port, f"t{run.table_id}", route)
                for port in run.ports + run.spectator_ports
            ]
            for run in runs
        ]
        flat = [s for group in floor_sockets for s in group]
        try:
            await open_all(flat)
        except Exception:
            for process in stack.processes:
                print(f"--- {process}:\n{stack.log_tail(process)}")
            raise
        await phase_run(floor, play_floor(runs, floor_sockets, args, interval, floor))
        await close_all(flat)
        floors.append(floor)
    return ours, floors, per_socket


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--game", default="remi", help="a key of the games registry")
    parser.add_argument("--tables", type=int, default=4, help="concurrent tables (1-200)")
    parser.add_argument("--players", default="4", help="seats per table, in turn (2-4)")
    parser.add_argument("--spectators", type=int, default=0, help="on the first table's game")
    parser.add_argument("--web-procs", type=int, default=1, help="daphne processes (1-8)")
    parser.add_argument("--moves", type=int, default=30, help="moves per table")
    parser.add_argument(
        "--advance", type=int, default=0, help="moves per table played before the measure"
    )
    parser.add_argument("--port", type=int, default=None, help="the first daphne's port")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=16, help="driver threads posting moves")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="moves per second over all tables (each table paced); default: flat out",
    )
    parser.add_argument("--no-floor", action="store_true", help="skip the floor")
    parser.add_argument(
        "--durable-floor",
        action="store_true",
        help="also the durable floor: the floor plus each move's compare-and-set of the game's\n"
        "row and its log row committed to PostgreSQL (needs DATABASE_URL on PostgreSQL)",
    )
    parser.add_argument(
        "--floor-pace",
        choices=("ours", "eager"),
        default="ours",
        help="the floor's tables move at ours' measured rate (default) or flat out",
    )
    parser.add_argument(
        "--route",
        choices=("spread", "table"),
        default="spread",
        help="sockets and posts spread over the processes in turn (default), or every client\n"
        "of a table on one process, as a load balancer that routes by table would",
    )
    parser.add_argument(
        "--over",
        choices=("socket", "http"),
        default="socket",
        help="ours' moves go over the mover's game socket, as the page sends them (default),\n"
        "or are posted to the act endpoint (pages without an open socket, scripts)",
    )
    parser.add_argument("--debug", action="store_true", help="run the site with DEBUG on")
    args = parser.parse_args()
    if not 1 <= args.tables <= 200 or not 1 <= args.moves <= 10_000:
        raise SystemExit("--tables is 1-200 and --moves 1-10000")
    if args.rate < 0:
        raise SystemExit("--rate is moves per second, 0 for flat out")
    if not 0 <= args.advance <= 1000:
        raise SystemExit("--advance is 0-1000")
    if not 0 <= args.spectators <= 2000 or not 1 <= args.web_procs <= 8:
        raise SystemExit("--spectators is 0-2000 and --web-procs 1-8")
    seats = seat_counts(args.players, args.tables)
    if args.durable_floor and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("--durable-floor writes to PostgreSQL: set DATABASE_URL to a database")

    load = os.getloadavg()
    # Hundreds of sockets on each side: the driver and the daphne processes (which inherit
    # this) need more than the usual 1,024 descriptors.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    with running_stack(
        debug=args.debug,
        web_procs=args.web_procs,
        port=args.port,
        app="bench.floor_asgi:application",
        # Every client of the bench is on this machine's one address, and a driver's player
        # may hold more sockets than a person's tabs would.
        MAX_SOCKETS_PER_ADDRESS="100000",
        MAX_SOCKETS_PER_SESSION="100000",
    ) as stack:
        import django
        from django.conf import settings

        from games.engine import get_game

        get_game(args.game)  # an unknown key stops here
        pace = f"paced at {args.rate:g}/s" if args.rate else "flat out"
        started = time.perf_counter()
        runs = make_tables(stack, args, seats)
        setup_s = time.perf_counter() - started
        print(
            f"setup: {args.game}, {len(seats)} tables of {'/'.join(sorted(set(map(str, seats))))} "
            f"seats ({sum(seats)} players) + {args.spectators} spectators on the first, "
            f"{args.web_procs} daphne process(es) (clients routed: {args.route}), "
            f"moves {pace} over {'the socket' if args.over == 'socket' else 'HTTP'}, "
            f"DEBUG={settings.DEBUG}, "
            f"Django {django.get_version()}; tables and sessions made in {setup_s:.1f} s"
            + (f" ({args.advance} moves per table played first)" if args.advance else "")
        )
        conn_age = settings.DATABASES["default"]["CONN_MAX_AGE"]
        pooled = f", pool of {stack.pool_size} per process" if stack.pool_size else ""
        print(
            f"       database: {describe_database(stack.database_url)}, "
            f"CONN_MAX_AGE={conn_age}{pooled}"
        )
        print(
            f"       Redis (channel layer): {describe_redis(stack.redis_url, stack.embedded_redis)}"
        )
        before = " ".join(f"{x:.2f}" for x in load)
        print(f"       load average before: {before} ({os.cpu_count()} cores)")
        with ThreadPoolExecutor(max_workers=args.threads) as pool:
            ours, floors, _ = asyncio.run(measure(stack, runs, args, pool))
            from django.db import connections

            pool.map(lambda _: connections.close_all(), range(args.threads))
        pace = "flat out" if args.floor_pace == "eager" else "at ours' pace"
        for floor in floors:
            print(f"{floor.name} ({pace}):")
            print_phase(floor)
        if floors:
            print("ours again, beside " + " and ".join(f"the {f.name}" for f in floors) + ":")
            print_phase(ours, floors)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if any("HTTP 5" in error for error in ours.errors):
            for name in stack.processes:  # what the server said about its failures
                said = stack.log_tail(name, 10**7).splitlines()
                said = [line for line in said if not ACCESS_LOG.match(line)]
                print(f"--- {name}'s log without its access lines, the end:")
                print("\n".join(said)[-3000:])


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the stack was stopped on the way out
        sys.exit("interrupted")
