"""The deadline sweep at scale: 100,000 active correspondence games, 1,000 of them due.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<scratch db> \\
    REDIS_URL=redis://127.0.0.1:6379/9 python bench/deadlines.py \\
        [--games 100000] [--due 1000] [--on-timeout autoplay|move]

Point DATABASE_URL at a scratch PostgreSQL database: the bench migrates it and empties the
games tables (and its own two users) before seeding.  It prints:

- the claim query (``clock_runner.claim_next``: the due clock ``FOR UPDATE SKIP LOCKED``
  through the partial index, then the conditional update), timed many times, each rolled
  back so every run sees the same 1,000 due clocks: median and 99th percentile;
- ``EXPLAIN ANALYZE`` of that query, which must show ``clock_due_live`` (the partial index);
- the same query with index scans turned off (a sequential scan of the clock table) as a
  baseline, and the ratio;
- the time for one worker to clear all due clocks: the sweep's loop run in this process
  (claim, then autoplay or the timeout move through ``services.play``, each in its own
  transaction, with the channel-layer publish to Redis after commit), per turn and in all.

The 99,000 games that are not due hold a placeholder state (the sweep never loads them);
the due ones are real dealt Remi games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.engine import GAMES  # noqa: E402
from games.models import Game, Seat, SeatClock, Table  # noqa: E402
from games.play import clock_runner  # noqa: E402

GAMES_PER_TABLE = 1000
BATCH = 5000


class Rollback(Exception):
    pass


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def seed(total: int, due: int, on_timeout: str) -> None:
    engine = GAMES["remi"]
    rules = engine.load_rules({**engine.dump_rules(engine.presets["remi"]), "doubla": False})
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE games_seatclock, games_action, games_game, games_seat, games_table CASCADE"
        )
    User.objects.filter(username__in=("bench-ana", "bench-mihai")).delete()
    ana = User.objects.create_user("bench-ana", time_zone="Europe/Bucharest")
    mihai = User.objects.create_user("bench-mihai", time_zone="America/Los_Angeles")
    now = timezone.now()
    # A table per due game (timeouts count per seat, and a seat belongs to one table); the
    # games that are not due share tables, a thousand to a table.
    shared_tables = (total - due + GAMES_PER_TABLE - 1) // GAMES_PER_TABLE
    tables = Table.objects.bulk_create(
        Table(
            owner=ana,
            rules=engine.dump_rules(rules),
            seat_count=2,
            pace=Table.Pace.SLOW,
            move_seconds=86400,
            on_timeout=on_timeout,
            status=Table.Status.PLAYING,
            series={},
        )
        for _ in range(shared_tables + due)
    )
    seats = Seat.objects.bulk_create(
        Seat(table=t, position=p, user=u) for t in tables for p, u in ((0, ana), (1, mihai))
    )
    seat_of = {(s.table_id, s.position): s for s in seats}
    rng = random.Random(1)
    due_numbers = sorted(rng.sample(range(total), due))
    due_table = {n: tables[shared_tables + i] for i, n in enumerate(due_numbers)}
    placed = 0
    for start in range(0, total, BATCH):
        games, clocks = [], []
        for n in range(start, min(total, start + BATCH)):
            if n in due_table:
                table, number = due_table[n], 0
            else:
                table, number = tables[placed // GAMES_PER_TABLE], placed % GAMES_PER_TABLE
                placed += 1
            if n in due_table:
                state = engine.new_game(rules, ["Ana", "Mihai"], f"bench/{n}")
                seat = min(engine.to_act(state))
                dumped = engine.dump(state)
                deadline = now - timedelta(seconds=rng.randint(1, 600))
            else:
                seat, dumped = 0, {"placeholder": True}
                deadline = now + timedelta(seconds=rng.randint(3600, 14 * 86400))
            brief = {
                str(seat): {
                    "turn": 0,
                    "turn_number": 0,
                    "phase": "open",
                    "shared": False,
                    "started": (deadline - timedelta(days=1)).isoformat(),
                    "deadline": deadline.isoformat(),
                    "paused": False,
                }
            }
            game = Game(
                table=table,
                number=number,
                state=dumped,
                to_act=[seat],
                phase="open",
                deadline=deadline,
                seat_clocks=brief,
            )
            games.append(game)
            clocks.append((game, seat, deadline))
        Game.objects.bulk_create(games)
        SeatClock.objects.bulk_create(
            SeatClock(
                game=game,
                seat=seat,
                turn=0,
                player_seat=seat_of[(game.table_id, seat)],
                phase="open",
                started_at=deadline - timedelta(days=1),
                allowance=86400,
                deadline=deadline,
                due_at=deadline,
            )
            for game, seat, deadline in clocks
        )
        print(f"  seeded {min(total, start + BATCH):>7} games", end="\r", flush=True)
    # A finished turn per game too, as a table that has been played for a while has: the
    # partial index leaves these out, a full index would not.
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO games_seatclock (game_id, seat, turn, player_seat_id, turn_number, "
            "phase, shared, started_at, allowance, deadline, due_at, attempts, timed_out, "
            "ended_at) SELECT game_id, 1 - seat, 1000, player_seat_id, 0, phase, false, "
            "started_at, allowance, deadline, due_at, 0, false, started_at FROM games_seatclock"
        )
        cursor.execute("ANALYZE games_seatclock")
        cursor.execute("ANALYZE games_game")
    print()


def time_claims(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        try:
            with transaction.atomic():
                started = time.perf_counter()
                claimed = clock_runner.claim_next(timezone.now())
                times.append((time.perf_counter() - started) * 1000)
                assert claimed is not None
                raise Rollback
        except Rollback:
            pass
    return times


def explain(*, index: bool) -> str:
    query = (
        clock_runner.due_clocks(timezone.now())
        .select_for_update(skip_locked=True, of=("self",))
        .values_list("game_id", "seat", "turn", "due_at")[:1]
    )
    with transaction.atomic(), connection.cursor() as cursor:
        if not index:
            cursor.execute("SET LOCAL enable_indexscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
        return query.explain(analyze=True)


def time_query(runs: int, *, index: bool) -> list[float]:
    times = []
    for _ in range(runs):
        with transaction.atomic(), connection.cursor() as cursor:
            if not index:
                cursor.execute("SET LOCAL enable_indexscan = off")
                cursor.execute("SET LOCAL enable_bitmapscan = off")
            query = (
                clock_runner.due_clocks(timezone.now())
                .select_for_update(skip_locked=True, of=("self",))
                .values_list("game_id", "seat", "turn", "due_at")
            )
            started = time.perf_counter()
            query.first()
            times.append((time.perf_counter() - started) * 1000)
    return times


def clear_all() -> tuple[float, list[float], int]:
    per_turn = []
    outcomes: dict[str, int] = {}
    started = time.perf_counter()
    now = timezone.now()
    while True:
        t0 = time.perf_counter()
        claimed = clock_runner.claim_next(now)
        if claimed is None:
            break
        result = clock_runner.run_safely(claimed, now)
        outcomes[result] = outcomes.get(result, 0) + 1
        per_turn.append((time.perf_counter() - t0) * 1000)
    total = time.perf_counter() - started
    print(f"  outcomes: {outcomes}")
    return total, per_turn, sum(outcomes.values())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--on-timeout", choices=("autoplay", "move"), default="autoplay")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("bench/deadlines.py measures PostgreSQL: set DATABASE_URL to a scratch database")
    call_command("migrate", verbosity=0)
    print(f"database: PostgreSQL {connection.cursor().connection.info.server_version}")
    print(f"seeding {args.games:,} active correspondence games, {args.due:,} due…")
    started = time.perf_counter()
    seed(args.games, args.due, args.on_timeout)
    print(f"  seeded in {time.perf_counter() - started:.1f} s")
    print(f"  clock rows: {SeatClock.objects.count():,} (half of them ended turns)")

    claims = time_claims(args.runs)
    print(f"\nclaim (select due FOR UPDATE SKIP LOCKED + conditional update), {args.runs} runs:")
    print(f"  median {statistics.median(claims):.2f} ms, p99 {percentile(claims, 0.99):.2f} ms")
    indexed = time_query(args.runs, index=True)
    scanned = time_query(max(10, args.runs // 10), index=False)
    print("select of the claim alone:")
    print(f"  with the partial index  median {statistics.median(indexed):.2f} ms")
    print(f"  sequential scan         median {statistics.median(scanned):.2f} ms")
    print(
        f"  ratio                   {statistics.median(scanned) / statistics.median(indexed):.0f}x"
    )
    print("\nEXPLAIN ANALYZE (the claim's select):")
    print("  " + explain(index=True).replace("\n", "\n  "))

    print(f"\none worker (in this process) clears the due clocks ({args.on_timeout}):")
    total, per_turn, cleared = clear_all()
    print(
        f"  {cleared} turns in {total:.2f} s; per turn median {statistics.median(per_turn):.1f} ms,"
        f" p99 {percentile(per_turn, 0.99):.1f} ms"
    )
    left = clock_runner.due_clocks(timezone.now()).count()
    print(f"  due clocks left: {left}; batch size per sweep: {settings.DEADLINE_SWEEP_BATCH}")


if __name__ == "__main__":
    main()
