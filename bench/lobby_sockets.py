"""Idle lobby sockets against a live game: how much later a move reaches the other seats when
a table is created at the same moment, with N idle lobby sockets open and without them.

Issue 27, fault 5: one client opened hundreds of lobby sockets and left them idle; every table
created then cost each process a render per socket, on the thread the game sockets' renders
share, and a move made at the same moment waited behind them.  This reproduces the measure.

Starts ``--web-procs`` daphne processes (``bench/stack.py``; DATABASE_URL / REDIS_URL if set,
otherwise SQLite and an embedded Redis in a temporary directory), one table of ``--players``
seats of ``--game`` with a game under way, each seat's game socket spread over the processes,
and a creator who posts the new-table form as a browser does.  Each repetition posts a
creation and, the moment it is answered, a move of the game: by then the creation's change has
been announced, so each process's lobby work for it is under way when the move arrives, which
is the case the issue measured.  (``--together`` posts both in the same instant instead, from
two threads released together: then which announcement each process hears first is a race,
and the figures are a mix of moves that waited and moves that did not.)  The move is timed
from its sending (over the mover's game socket, as the page sends it; its POST with ``--over
http``) to the frame with the new version on every other seat's socket; then the bench waits
until every lobby socket has had its update, so the next repetition starts idle.

For each N of ``--sockets``: ``--repeat`` repetitions with no lobby socket open, then N
anonymous lobby sockets from this one address (spread over the processes, as a load balancer
would) and ``--repeat`` repetitions with them.  The socket caps per address and per session
(``MAX_SOCKETS_PER_ADDRESS``, ``MAX_SOCKETS_PER_SESSION``) and the table limits are raised
for the run, so that nothing is refused.

Printed per N: the medians without and with the sockets, the delay (with minus without),
the slowest repetition with them, and the daphne processes' CPU per repetition (a creation,
a move and what they set off); the load average before each block.

    python bench/lobby_sockets.py [--sockets 50,150,300] [--repeat 7] [--web-procs 2]
                                  [--game remi] [--players 4] [--seed 0] [--together]
                                  [--over socket|http]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live import (
    FRAME_TIMEOUT,
    Player,
    Socket,
    TableRun,
    choose_and_post,
    close_all,
    cpu_seconds,
    logged_in,
    open_all,
    send_over_socket,
)
from stack import HOST, Stack, describe_database, describe_redis, make_users, running_stack

# Raised for the run: the bench opens hundreds of sockets from one address and creates a
# table per repetition as one player.
UNCAPPED = {
    "MAX_SOCKETS_PER_ADDRESS": "100000",
    "MAX_SOCKETS_PER_SESSION": "100000",
    "MAX_OPEN_TABLES_PER_USER": "100000",
    "TABLE_CREATIONS_PER_MINUTE": "100000",
}
# Seconds every lobby socket may take to show a creation before the next repetition starts.
LOBBY_TIMEOUT = 120.0
# A pause between repetitions, so that nothing of the last one is still running.
SETTLE_SECONDS = 0.5


@dataclass
class Block:
    sockets: int
    load_before: tuple[float, ...] = ()
    without: list[float] = field(default_factory=list)  # ms, move to every other seat
    with_sockets: list[float] = field(default_factory=list)
    cpu_without: float = 0.0  # daphne CPU seconds per repetition
    cpu_with: float = 0.0
    driver_with: float = 0.0  # this driver's CPU seconds per repetition, with the sockets
    lobby_catch_up: list[float] = field(default_factory=list)  # s, creation to last lobby frame
    missed: int = 0

    @property
    def delay(self) -> float:
        return statistics.median(self.with_sockets) - statistics.median(self.without)


def table_fields(game_type: str) -> dict[str, str]:
    """The new-table form as a browser submits it untouched: every field's initial value."""
    from django.http import QueryDict

    from games.tables.forms import TableForm
    from games.tables.lobby import _initial_from

    query = QueryDict(mutable=True)
    query["game_type"] = game_type
    form = TableForm(initial=_initial_from(query))
    fields = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        fields[name] = "on" if value is True else str(value)
    return fields


def make_game(stack: Stack, args: argparse.Namespace) -> tuple[TableRun, Player]:
    from games.tables import lifecycle

    prefix = f"lobbybench{random.Random(args.seed).randrange(10**6)}-{int(time.time()) % 10**6}-"
    users = make_users(prefix, args.players + 1)
    people, creator = users[: args.players], users[-1]
    table = lifecycle.create_table(
        people[0], game_type=args.game, seat_count=args.players, options={"series_games": 1000}
    )
    for person in people[1:]:
        lifecycle.join_table(table, person)
    lifecycle.start_table(table, people[0])
    ports = [stack.ports[n % len(stack.ports)] for n in range(len(people))]
    players = [logged_in(stack, person, port) for person, port in zip(people, ports, strict=True)]
    run = TableRun(table.pk, players, ports, [], args.seed)
    run.refresh_game()
    return run, logged_in(stack, creator, stack.ports[0])


class LobbySocket(Socket):
    """An idle lobby page's socket: it only counts the frames it is sent.  Read as bytes and
    not searched: the bench runs on the site's cores, and decoding and searching 300 lobbies
    of 30 KB a change would charge the site with the driver's work."""

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            while True:
                await self.ws.recv(decode=False)
                self.frames += 1


def lobby_sockets(stack: Stack, count: int) -> list[Socket]:
    return [
        LobbySocket(f"ws://{HOST}:{port}/ws/lobby/", f"http://{HOST}:{port}", None)
        for port in (stack.ports[n % len(stack.ports)] for n in range(count))
    ]


async def reopen_seats(run: TableRun) -> None:
    await close_all(run.seats)
    run.seats = run.sockets()
    await open_all(run.seats)


class Start:
    """When each of the two posts goes: together, or the move once the creation is answered."""

    def __init__(self, together: bool) -> None:
        self.together = threading.Barrier(2) if together else None
        self.created = threading.Event()

    def creation_may_go(self) -> None:
        if self.together is not None:
            self.together.wait()

    def move_may_go(self) -> None:
        if self.together is not None:
            self.together.wait()
        else:
            self.created.wait()


def post_creation(creator: Player, fields: dict[str, str], start: Start) -> tuple[int, float]:
    """In a worker thread: the new-table form posted; its status and when it was posted."""
    start.creation_may_go()
    started = time.perf_counter()
    try:
        status, _ = creator.browser.request("POST", "/tables/new/", fields)
    finally:
        start.created.set()
    return status, started


def post_move(run: TableRun, game: str, rng: random.Random, start: Start) -> dict[str, Any]:
    start.move_may_go()
    return choose_and_post(run, game, rng)


async def move(
    run: TableRun,
    args: argparse.Namespace,
    pool: ThreadPoolExecutor,
    rng: random.Random,
    start: Start,
) -> dict[str, Any]:
    """The move, when ``start`` lets it go: over the mover's game socket as the page sends it,
    or posted to the act endpoint (``--over http``)."""
    loop = asyncio.get_running_loop()
    if args.over == "http":
        return await loop.run_in_executor(pool, post_move, run, args.game, rng, start)
    await loop.run_in_executor(pool, start.move_may_go)
    return await send_over_socket(run, args, pool, rng)


async def repetition(
    run: TableRun,
    creator: Player,
    fields: dict[str, str],
    lobby: list[Socket],
    args: argparse.Namespace,
    pool: ThreadPoolExecutor,
    rng: random.Random,
) -> tuple[float | None, float | None]:
    """One creation and one move: ms from the move to every other seat, and seconds from the
    creation to the last lobby socket's update (None: missed)."""
    loop = asyncio.get_running_loop()
    while True:
        seen_before = [s.frames for s in lobby]
        start = Start(args.together)
        created, moved = await asyncio.gather(
            loop.run_in_executor(pool, post_creation, creator, fields, start),
            move(run, args, pool, rng, start),
        )
        status, created_at = created
        if status != 302:
            raise RuntimeError(f"the new-table form answered HTTP {status}")
        caught_up = await lobby_caught_up(lobby, seen_before, created_at)
        if "next" in moved:  # the game ended: the series' next one, and again
            run.game_id, run.version = moved["next"]
            await reopen_seats(run)
            continue
        if moved.get("over") or not moved.get("ok"):
            raise RuntimeError(f"the game could not go on: {moved}")
        others = [s for i, s in enumerate(run.seats) if i != moved["seat"]]
        seen = await asyncio.gather(*(s.wait_for(moved["version"], FRAME_TIMEOUT) for s in others))
        run.version = moved["version"]
        await asyncio.sleep(SETTLE_SECONDS)
        if any(at is None for at in seen):
            return None, caught_up
        return (max(seen) - moved["started"]) * 1000, caught_up


async def lobby_caught_up(lobby: list[Socket], before: list[int], since: float) -> float | None:
    """Seconds from ``since`` until every lobby socket had a frame more than ``before``."""
    deadline = time.monotonic() + LOBBY_TIMEOUT
    last = since
    for socket, count in zip(lobby, before, strict=True):
        while socket.frames <= count:
            if time.monotonic() > deadline:
                return None
            await asyncio.sleep(0.01)
        last = max(last, time.perf_counter())
    return last - since


async def measure(stack: Stack, args: argparse.Namespace, pool: ThreadPoolExecutor) -> list[Block]:
    loop = asyncio.get_running_loop()
    run, creator = await loop.run_in_executor(pool, make_game, stack, args)
    fields = await loop.run_in_executor(pool, table_fields, args.game)
    rng = random.Random(args.seed)
    web = stack.web_processes()
    await reopen_seats(run)
    # Warm every process up: templates, the first queries, a lobby socket on each.
    warm = lobby_sockets(stack, len(stack.ports))
    await open_all(warm)
    for _ in range(3):
        await repetition(run, creator, fields, warm, args, pool, rng)
    await close_all(warm)

    blocks = []
    for count in args.sockets:
        block = Block(count, os.getloadavg())
        print(
            f"{count} idle lobby sockets: load average before "
            + " ".join(f"{x:.2f}" for x in block.load_before),
            flush=True,
        )
        for lobby, into in (([], block.without), (lobby_sockets(stack, count), block.with_sockets)):
            await open_all(lobby)
            await asyncio.sleep(2.0)  # each socket's first render is done
            cpu0, driver0 = cpu_seconds(web), time.process_time()
            for _ in range(args.repeat):
                ms, caught_up = await repetition(run, creator, fields, lobby, args, pool, rng)
                if ms is None:
                    block.missed += 1
                else:
                    into.append(ms)
                if lobby and caught_up is not None:
                    block.lobby_catch_up.append(caught_up)
            cpu = (cpu_seconds(web) - cpu0) / args.repeat
            if lobby:
                block.cpu_with = cpu
                block.driver_with = (time.process_time() - driver0) / args.repeat
            else:
                block.cpu_without = cpu
            await close_all(lobby)
            await asyncio.sleep(1.0)
        print(
            f"  without: {', '.join(f'{v:.0f}' for v in block.without)} ms; "
            f"with: {', '.join(f'{v:.0f}' for v in block.with_sockets)} ms",
            flush=True,
        )
        blocks.append(block)
    await close_all(run.seats)
    return blocks


def print_blocks(blocks: list[Block]) -> None:
    print()
    print(
        f"{'idle lobby sockets':>18} {'load before':>16} {'without':>8} {'with':>8} "
        f"{'delay':>8} {'max with':>9} {'CPU/rep without':>16} {'CPU/rep with':>13} "
        f"{'lobby caught up':>16} {'driver CPU/rep':>15}"
    )
    for b in blocks:
        if not b.without or not b.with_sockets:
            print(f"{b.sockets:>18} (missed: {b.missed})")
            continue
        caught = statistics.median(b.lobby_catch_up) if b.lobby_catch_up else float("nan")
        load = " ".join(f"{x:.2f}" for x in b.load_before)
        print(
            f"{b.sockets:>18} {load:>16} {statistics.median(b.without):>6.0f}ms "
            f"{statistics.median(b.with_sockets):>6.0f}ms {b.delay:>+6.0f}ms "
            f"{max(b.with_sockets):>7.0f}ms {b.cpu_without * 1000:>14.0f}ms "
            f"{b.cpu_with * 1000:>11.0f}ms {caught:>15.2f}s {b.driver_with * 1000:>13.0f}ms"
            + (f"  ({b.missed} missed)" if b.missed else "")
        )
    print(
        "(medians over the repetitions, the move sent (or posted) to the frame on every other "
        "seat's socket; "
        "CPU: the daphne processes' per repetition; lobby caught up: creation POST to the "
        "last lobby socket's frame, median; driver CPU: this process's per repetition with "
        "the sockets, on the same cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--sockets", default="50,150,300", help="idle lobby sockets, per block")
    parser.add_argument("--repeat", type=int, default=7, help="repetitions per measure")
    parser.add_argument("--web-procs", type=int, default=2, help="daphne processes (1-8)")
    parser.add_argument("--game", default="remi", help="a key of the games registry")
    parser.add_argument("--players", type=int, default=4, help="seats at the game (2-4)")
    parser.add_argument("--port", type=int, default=None, help="the first daphne's port")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--together",
        action="store_true",
        help="post the move and the creation in the same instant (default: the move the\n"
        "moment the creation is answered, when its change has been announced)",
    )
    parser.add_argument(
        "--over",
        choices=("socket", "http"),
        default="socket",
        help="the move goes over the mover's game socket, as the page sends it (default),\n"
        "or is posted to the act endpoint",
    )
    args = parser.parse_args()
    try:
        args.sockets = [int(n) for n in args.sockets.split(",")]
    except ValueError:
        raise SystemExit("--sockets is a comma-separated list of counts") from None
    if any(not 1 <= n <= 2000 for n in args.sockets) or not 1 <= args.repeat <= 100:
        raise SystemExit("--sockets are 1-2000 each and --repeat 1-100")
    if not 1 <= args.web_procs <= 8 or not 2 <= args.players <= 4:
        raise SystemExit("--web-procs is 1-8 and --players 2-4")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    load = os.getloadavg()
    with running_stack(web_procs=args.web_procs, port=args.port, **UNCAPPED) as stack:
        import django
        from django.conf import settings

        from games.engine import get_game

        get_game(args.game)  # an unknown key stops here
        print(
            f"setup: {args.game}, one table of {args.players} seats, {args.web_procs} daphne "
            f"process(es), {args.repeat} repetitions per measure, the move posted "
            f"{'with the creation' if args.together else 'as the creation is answered'}, "
            f"DEBUG={settings.DEBUG}, "
            f"Django {django.get_version()}"
        )
        print(f"       database: {describe_database(stack.database_url)}")
        print(f"       Redis: {describe_redis(stack.redis_url, stack.embedded_redis)}")
        print(
            f"       load average before: {' '.join(f'{x:.2f}' for x in load)} "
            f"({os.cpu_count()} cores)"
        )
        with ThreadPoolExecutor(max_workers=4) as pool:
            blocks = asyncio.run(measure(stack, args, pool))
            from django.db import connections

            pool.map(lambda _: connections.close_all(), range(4))
        print_blocks(blocks)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the stack was stopped on the way out
        sys.exit("interrupted")
