"""Solver speed: milliseconds per ``solve`` (median, p99, max) by rack size.

1. Positions from random four-player games: every sampled play-phase position of the seat to
   move (its real rack, the table as it stands, first meld or not, whether it may add), and the
   same position with the rack topped up with unseen tiles to 14-20 tiles (a mid-game rack) and
   to 21-25 (just after picking up a stretch of the discard row).
2. The later turns of (1) with 14-25 tiles, by the number of melds on the table.
3. Dense racks, a worst case: 14-25 tiles from two colours or from six consecutive numbers,
   with 0-2 Jolys, against the late-game tables of (1).

Every position is solved for both objectives (points and tiles); single core, wall clock.

    python bench/solver.py [--games 60] [--per-game 40] [--dense 1000] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.remi import REMI
from games.engine.remi.melds import Meld
from games.engine.remi.randomplay import play_random_game
from games.engine.remi.solver import OBJECTIVES, solve
from games.engine.remi.state import PLAY, State
from games.engine.tiles import COLOURS, JOKER, Tile, full_set

RACK_BANDS = ((1, 13), (14, 15), (16, 17), (18, 20), (21, 25), (26, 99))
TABLE_BANDS = ((0, 5), (6, 11), (12, 99))


@dataclass(frozen=True)
class Position:
    rack: list[Tile]
    table: list[Meld]
    first_meld: bool
    may_add: bool


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def band(size: int, bands: tuple[tuple[int, int], ...]) -> str:
    low, high = next((low, high) for low, high in bands if low <= size <= high)
    return f"{low}+" if high == 99 else f"{low}-{high}"


def position_of(state: State, rack: list[Tile]) -> Position:
    seat = state.turn
    return Position(
        rack=rack,
        table=[m.meld for m in state.melds],
        first_meld=state.melded_on[seat] is None,
        # In the turn of the first meld the seat may not add to others' melds; the bots then
        # only lay new melds, as the property tests do.
        may_add=state.melded_on[seat] != state.turn_number,
    )


def topped_up(state: State, size: int, rng: random.Random) -> list[Tile]:
    """The seat's rack with tiles it cannot see (wall and other racks) added up to ``size``."""
    rack = list(state.racks[state.turn])
    hidden = list(state.wall)
    for seat, other in enumerate(state.racks):
        if seat != state.turn:
            hidden.extend(other)
    rng.shuffle(hidden)
    while len(rack) < size and hidden:
        rack.append(hidden.pop())
    return rack


def game_positions(games: int, per_game: int, rng: random.Random) -> list[Position]:
    found: list[Position] = []
    for n in range(games):
        try:
            game = play_random_game(REMI, 4, f"bench-solver-{n}", rng, keep_states=True)
        except AssertionError as exc:  # random play can (rarely) run past its action limit
            print(f"skipped: {exc}")
            continue
        playing = [s for s in game.states if s.phase == PLAY]
        for state in rng.sample(playing, min(per_game, len(playing))):
            found.append(position_of(state, list(state.racks[state.turn])))
            found.append(position_of(state, topped_up(state, rng.randint(14, 20), rng)))
            found.append(position_of(state, topped_up(state, rng.randint(21, 25), rng)))
    return found


def dense_positions(count: int, tables: list[list[Meld]], rng: random.Random) -> list[Position]:
    """Racks crowded into two colours or six numbers: many overlapping runs and sets."""
    found: list[Position] = []
    for _ in range(count):
        tiles = [t for t in full_set() if not t.is_joker]
        if rng.random() < 0.5:
            colours = rng.sample(COLOURS, 2)
            tiles = [t for t in tiles if t.colour in colours]
        else:
            low = rng.randint(1, 8)
            tiles = [t for t in tiles if low <= t.number < low + 6]
        jokers = rng.choice([0, 1, 2])
        rack = [*rng.sample(tiles, rng.randint(14, 25) - jokers), *[JOKER] * jokers]
        found.append(Position(rack, rng.choice(tables), first_meld=False, may_add=True))
    return found


def timed(position: Position) -> list[float]:
    """Milliseconds for each objective."""
    elapsed = []
    for objective in OBJECTIVES:
        started = time.perf_counter()
        solve(
            position.rack,
            position.table,
            REMI,
            first_meld=position.first_meld,
            may_add=position.may_add,
            objective=objective,
        )
        elapsed.append((time.perf_counter() - started) * 1000)
    return elapsed


def table_of(
    title: str, positions: list[Position], row: Callable[[Position], tuple[str, ...]]
) -> list[float]:
    """Time every position and print one line per row label (plus 'all'); return the times."""
    rows: dict[tuple[str, ...], list[float]] = {}
    every: list[float] = []
    for position in positions:
        times = timed(position)
        rows.setdefault(row(position), []).extend(times)
        every.extend(times)
    print(f"\n{title}")
    width = len(next(iter(rows))) if rows else 1
    print(f"  {'':<24} {'solves':>7} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for label in sorted(rows, key=_row_order):
        _line(" ".join(label), rows[label])
    _line(" ".join(["all", *[""] * (width - 1)]), every)
    return every


def _row_order(label: tuple[str, ...]) -> list[tuple[int, str]]:
    # By the first number in each part ('rack 14-15' before 'rack 16-17'), then by text.
    return [(int((re.findall(r"\d+", part) or ["0"])[0]), part) for part in label]


def _line(label: str, values: list[float]) -> None:
    if not values:
        return
    print(
        f"  {label:<24} {len(values):>7} {statistics.median(values):>10.2f} "
        f"{percentile(values, 0.99):>8.2f} {max(values):>8.2f}"
    )


def report_solver(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    found = game_positions(args.games, args.per_game, rng)
    tables = [len(p.table) for p in found]
    print(
        f"{len(found)} positions from {args.games} random 4-player games "
        f"({time.perf_counter() - started:.1f} s to play); table melds: median "
        f"{statistics.median(tables):.0f}, max {max(tables)}"
    )
    table_of(
        "1. Positions from random games, by rack size and turn",
        found,
        lambda p: (
            f"rack {band(len(p.rack), RACK_BANDS)}",
            "first meld" if p.first_meld else "later turn",
        ),
    )
    later = [p for p in found if not p.first_meld and 14 <= len(p.rack) <= 25]
    table_of(
        "2. Later turns with 14-25 tiles, by table melds",
        later,
        lambda p: (f"table {band(len(p.table), TABLE_BANDS)}",),
    )
    late_tables = sorted((p.table for p in found), key=len)[-max(1, len(found) // 10) :]
    table_of(
        f"3. Dense racks (worst case) against the largest tables ({len(late_tables[0])}+ melds)",
        dense_positions(args.dense, late_tables, rng),
        lambda p: (f"rack {band(len(p.rack), RACK_BANDS)}", f"{p.rack.count(JOKER)} Joly"),
    )


# --- Bot-turn latency through the real stack ------------------------------------------------
# Measured by bench/bot_latency.py: it starts daphne, a Celery worker and Redis, and times a
# person's move (HTTP POST) to the bot's answer on the person's WebSocket.  It stays a separate
# script so this one keeps measuring the solver alone, on one core, with no processes around.


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # Random play iterates sets of tiles, whose order follows Python's hash seed: fix the
        # seed so that the same --seed gives the same positions.
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--per-game", type=int, default=40, help="positions sampled per game")
    parser.add_argument("--dense", type=int, default=1000, help="dense worst-case racks")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    report_solver(args)


if __name__ == "__main__":
    main()
