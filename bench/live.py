"""Live play through the real stack: move latency to every other seat, and moves per second.

Starts daphne on a fresh database in a temporary directory (DATABASE_URL / REDIS_URL if set;
otherwise SQLite there and an embedded Redis on a unix socket), migrates it, creates the
players and their tables, logs every player in through the login form, and opens one game
WebSocket per player, as their browser would.  Each table is then played by its own driver
thread: it chooses the next move with the engine (random legal play, from the game's state
read straight from the database), posts it to the act endpoint over HTTP as the player's
browser does (htmx, CSRF header, session cookie), and waits until every other seat's socket
has received the frame with the new version.  A finished game is followed by the next one of
the series (the players' "Deal the next game" button).

Measured per move: from just before the POST to the last other seat's frame ("to all
others"), to each other seat's frame, and the POST's own round trip.  Tables play at the same
time, each waiting for its frames before its next move, so moves/s is what that many tables
of eager players get from one daphne process.

    python bench/live.py [--tables 4] [--players 2,3,4] [--moves 150] [--seed 0] [--debug]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import (
    VERSION,
    Browser,
    GameSocket,
    current_game,
    describe_database,
    describe_redis,
    make_users,
    percentile,
    running_stack,
)

FRAME_TIMEOUT = 10.0  # seconds a socket may take to show a move before it counts as missed


@dataclass
class Results:
    to_all: list[float] = field(default_factory=list)  # ms, per move: the slowest other seat
    to_each: list[float] = field(default_factory=list)  # ms, per move and other seat
    post: list[float] = field(default_factory=list)  # ms, the act POST's round trip
    counts: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, to_all: float, to_each: list[float], post: float) -> None:
        with self.lock:
            self.to_all.append(to_all)
            self.to_each.extend(to_each)
            self.post.append(post)
            self.counts["moves"] += 1


def play_table(
    table_id: int,
    browsers: list[Browser],
    moves: int,
    seed: int,
    results: Results,
    stop: threading.Event,
) -> None:
    """One table's driver: ``moves`` moves (fewer if the series ends), one after another."""
    from django.db import connection

    from games.engine.randomplay import actor, random_action
    from games.engine.state import OVER, State
    from games.models import Game

    rng = random.Random(seed)
    game = current_game(table_id)
    sockets = [GameSocket(b, game.pk, game.version) for b in browsers]
    played = 0
    try:
        while played < moves and not stop.is_set():
            game = Game.objects.get(pk=game.pk)
            state = State.from_dict(game.state)
            if state.phase == OVER:
                status, _ = browsers[0].request("POST", f"/games/{game.pk}/next/", {}, htmx=True)
                following = current_game(table_id)
                if status != 200 or following.pk == game.pk:
                    break  # the series is over
                for ws in sockets:
                    ws.close()
                with results.lock:
                    results.counts["frames received"] += sum(ws.frames for ws in sockets)
                game = following
                sockets = [GameSocket(b, game.pk, game.version) for b in browsers]
                with results.lock:
                    results.counts["games dealt"] += 1
                continue
            seat = actor(state)
            action = random_action(state, seat, rng)
            fields = {"version": game.version, "verb": "notation", "notation": str(action)}
            started = time.perf_counter()
            status, body = browsers[seat].request(
                "POST", f"/games/{game.pk}/act/", fields, htmx=True
            )
            answered = time.perf_counter()
            shown = VERSION.search(body)
            if status != 200 or not shown or int(shown.group(1)) != game.version + 1:
                with results.lock:
                    results.counts["refused or stale"] += 1
                    results.errors.append(f"table {table_id}: {action}: HTTP {status}")
                if len(results.errors) > 20:
                    raise RuntimeError("too many refused moves:\n" + "\n".join(results.errors))
                continue
            arrivals = [
                ws.wait_for(game.version + 1, FRAME_TIMEOUT)
                for i, ws in enumerate(sockets)
                if i != seat
            ]
            played += 1
            if any(a is None for a in arrivals):
                with results.lock:
                    results.counts["moves missed by a socket"] += 1
                continue
            each = [(frame.at - started) * 1000 for frame in arrivals]
            results.add(max(each), each, (answered - started) * 1000)
    finally:
        for ws in sockets:
            ws.close()
            with results.lock:
                results.counts["frames received"] += ws.frames
        connection.close()


def seat_counts(text: str, tables: int) -> list[int]:
    cycle = [int(n) for n in text.split(",")]
    if any(not 2 <= n <= 4 for n in cycle):
        raise SystemExit("--players: seats per table are 2 to 4 (e.g. 4, or 2,3,4 in turn)")
    return [cycle[i % len(cycle)] for i in range(tables)]


def report(
    args: argparse.Namespace,
    seats: list[int],
    stack: Any,
    results: Results,
    elapsed: float,
    login_s: float,
) -> None:
    import django
    from django.conf import settings

    print(
        f"setup: {len(seats)} tables with {'/'.join(map(str, seats))} seats "
        f"({sum(seats)} players, one WebSocket each), 1 daphne process, "
        f"DEBUG={settings.DEBUG}, Django {django.get_version()}"
    )
    conn_age = settings.DATABASES["default"]["CONN_MAX_AGE"]
    print(f"       database: {describe_database(stack.database_url)}, CONN_MAX_AGE={conn_age}")
    print(f"       Redis (channel layer): {describe_redis(stack.redis_url, stack.embedded_redis)}")
    print(f"       logins through the form: {login_s:.1f} s for {sum(seats)} players")
    counts = ", ".join(f"{k} {v}" for k, v in sorted(results.counts.items()))
    print(f"counts: {counts}")
    if not results.to_all:
        print("no move was measured")
        return

    def line(label: str, values: list[float]) -> None:
        print(
            f"  {label:<34} {len(values):>6} {statistics.median(values):>9.1f} "
            f"{percentile(values, 0.99):>8.1f} {max(values):>8.1f}"
        )

    print(f"  {'ms from POST':<34} {'count':>6} {'median':>9} {'p99':>8} {'max':>8}")
    line("to every other seat's socket", results.to_all)
    line("to each other seat's socket", results.to_each)
    line("the POST's answer (the mover)", results.post)
    moves = results.counts["moves"] + results.counts["moves missed by a socket"]
    print(f"throughput: {moves} moves in {elapsed:.1f} s = {moves / elapsed:.1f} moves/s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--players", default="2,3,4", help="seats per table, in turn (2-4)")
    parser.add_argument("--moves", type=int, default=150, help="moves per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=600, help="stop playing after this")
    parser.add_argument("--debug", action="store_true", help="run the site with DEBUG on")
    args = parser.parse_args()
    if not 1 <= args.tables <= 50 or not 1 <= args.moves <= 10_000:
        raise SystemExit("--tables is 1-50 and --moves 1-10000")
    seats = seat_counts(args.players, args.tables)

    with running_stack(debug=args.debug) as stack:
        from games import services

        prefix = f"bench{random.Random(args.seed).randrange(10**6)}-{int(time.time()) % 10**6}-"
        users = make_users(prefix, sum(seats))
        tables, browsers, next_user = [], [], 0
        started = time.perf_counter()
        for count in seats:
            people = users[next_user : next_user + count]
            next_user += count
            # A long series, so a table that finishes a game deals the next one.
            table = services.create_table(
                people[0], seat_count=count, options={"series_games": 1000}
            )
            for person in people[1:]:
                services.join_table(table, person)
            services.start_table(table, people[0])
            table_browsers = []
            for person in people:
                browser = Browser(stack)
                browser.log_in(person.username)
                table_browsers.append(browser)
            tables.append(table.pk)
            browsers.append(table_browsers)
        login_s = time.perf_counter() - started

        results = Results()
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=play_table,
                args=(table_id, table_browsers, args.moves, args.seed * 1000 + n, results, stop),
                daemon=True,
            )
            for n, (table_id, table_browsers) in enumerate(zip(tables, browsers, strict=True))
        ]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        deadline = began + args.timeout
        try:
            for thread in threads:
                thread.join(max(0.0, deadline - time.perf_counter()))
        finally:
            stop.set()
            for thread in threads:
                thread.join(FRAME_TIMEOUT + 5)
            for table_browsers in browsers:
                for browser in table_browsers:
                    browser.close()
        elapsed = time.perf_counter() - began
        if any(thread.is_alive() for thread in threads):
            results.counts["tables stopped by --timeout"] += 1
        for error in results.errors[:5]:
            print(f"refused: {error}")
        report(args, seats, stack, results, elapsed, login_s)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the stack was stopped on the way out
        sys.exit("interrupted")
