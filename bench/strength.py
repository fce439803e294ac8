"""Bot strength, measured the way players feel it: for each game, rules family and pairing of
levels (hard/normal, normal/easy), seat-balanced games of two seats per level, and the
differences of hands won, mean score per hand and, where the game is played as a series
(Remi's series, Thai Rummy to 500), series won, each with a 95% confidence interval; plus
each level's CPU per bot move (p50, p99).  Saves a markdown table.

    python bench/strength.py                       # every game and family, 2,000 hands each
    python bench/strength.py --game remi --presets remi --games 200
    python bench/strength.py --processes 2         # optional; one process by default

Hands are played in matches at one seating (seats rotate from match to match, the number of
matches a multiple of the seats): a Remi match is ``REMI_SERIES`` games, a Thai Rummy match
runs to 500 by the game's own rules, every other game's match is one hand.  The hands of all
matches are the hand sample; the matches are the series sample.  Each difference is paired:
the two levels' seats in the same deal, so the luck of the deal cancels.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.arena import (
    GameResult,
    Interval,
    paired_difference,
    play_match,
    win_share_difference,
)
from games.engine import GAMES, discover_games, get_game, register_games

register_games(discover_games())  # the engine's own games: no site here to register them

REMI_SERIES = 5  # games in a Remi match (a table's series of a fixed number of games)
PAIRINGS = (("hard", "normal"), ("normal", "easy"))
SEATS_PER_LEVEL = 2
OUT = Path(__file__).resolve().parent / "artefacts" / "strength.md"


def hands_per_match(game_key: str) -> int | None:
    """Games in one match (None: as long as the game's series rules say)."""
    if game_key == "remi":
        return REMI_SERIES
    if game_key == "thai-rummy":
        return None
    return 1


def families(game_key: str) -> list[str]:
    """The game's presets with distinct rules for the bots: a preset that differs from an
    earlier one only by a clock is the same family (bots never see the clock)."""
    game = get_game(game_key)
    seen: list[Any] = []
    names = []
    for name, rules in game.presets.items():
        plain = rules
        if dataclasses.is_dataclass(rules) and hasattr(rules, "turn_seconds"):
            plain = dataclasses.replace(rules, turn_seconds=None)
        if plain not in seen:
            seen.append(plain)
            names.append(name)
    return names


def _match(
    task: tuple[str, str, tuple[str, ...], str, int | None],
) -> tuple[list[GameResult], GameResult, dict[str, list[float]]]:
    game_key, preset, levels, seed, hands = task
    game = get_game(game_key)
    thinking: dict[str, list[float]] = {}
    played, match = play_match(levels, seed, game.presets[preset], game, hands, thinking)
    return played, match, thinking


def seatings(a: str, b: str) -> Iterator[tuple[str, ...]]:
    levels = [a] * SEATS_PER_LEVEL + [b] * SEATS_PER_LEVEL
    number = 0
    while True:
        shift = number % len(levels)
        yield tuple(levels[shift:] + levels[:shift])
        number += 1


@dataclasses.dataclass
class Row:
    game: str
    preset: str
    a: str
    b: str
    hands: list[GameResult]
    matches: list[GameResult]
    thinking: dict[str, list[float]]
    seconds: float

    @property
    def series(self) -> bool:
        return hands_per_match(self.game) != 1

    def won(self) -> Interval:
        return win_share_difference(self.hands, self.a, self.b)

    def score(self) -> Interval:
        return paired_difference(self.hands, self.a, self.b)

    def series_won(self) -> Interval:
        return win_share_difference(self.matches, self.a, self.b)

    def cpu(self, level: str) -> tuple[float, float]:
        times = sorted(self.thinking.get(level, [0.0]))
        return percentile(times, 0.5), percentile(times, 0.99)

    def ordered(self) -> bool:
        checks = [self.won(), self.score()] + ([self.series_won()] if self.series else [])
        return all(c.low > 0 for c in checks)


def percentile(ordered: Sequence[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def play_row(game_key: str, preset: str, a: str, b: str, games: int, seed: str, pool: Any) -> Row:
    hands: list[GameResult] = []
    matches: list[GameResult] = []
    thinking: dict[str, list[float]] = {}
    per_match = hands_per_match(game_key)
    seats = seatings(a, b)
    started = time.monotonic()
    rotation = 2 * SEATS_PER_LEVEL
    batch = rotation * (pool._max_workers if pool is not None else 1)
    # Whole rotations only, so every level sits in every seat equally often.
    while len(hands) < games or len(matches) % rotation:
        tasks = []
        for _ in range(batch):
            number = len(matches) + len(tasks)
            tasks.append(
                (
                    game_key,
                    preset,
                    next(seats),
                    f"{seed}/{game_key}/{preset}/{a}-{b}/{number}",
                    per_match,
                )
            )
        answers = pool.map(_match, tasks) if pool is not None else map(_match, tasks)
        for played, match, times in answers:
            hands.extend(played)
            matches.append(match)
            for level, values in times.items():
                thinking.setdefault(level, []).extend(values)
            if len(hands) >= games and len(matches) % rotation == 0:
                break
    return Row(game_key, preset, a, b, hands, matches, thinking, time.monotonic() - started)


def pp(interval: Interval) -> str:
    return f"{100 * interval.mean:+.1f} pp [{100 * interval.low:+.1f}, {100 * interval.high:+.1f}]"


def pts(interval: Interval) -> str:
    return f"{interval.mean:+.1f} [{interval.low:+.1f}, {interval.high:+.1f}]"


HEADER = (
    "| game | rules | pairing | hands | hands won per seat, diff [95% CI] | score per hand, "
    "diff [95% CI] | matches | matches won per seat, diff [95% CI] | CPU per move p50 / p99 "
    "(ms) | "
    "ordered |\n|---|---|---|---|---|---|---|---|---|---|"
)


def line(row: Row) -> str:
    series = (str(len(row.matches)), pp(row.series_won())) if row.series else ("—", "no series")
    cpu = " · ".join(
        f"{level} {1000 * p50:.1f} / {1000 * p99:.1f}"
        for level in (row.a, row.b)
        for p50, p99 in [row.cpu(level)]
    )
    return (
        f"| {row.game} | {row.preset} | {row.a} vs {row.b} | {len(row.hands)} | "
        f"{pp(row.won())} | {pts(row.score())} | {series[0]} | {series[1]} | {cpu} | "
        f"{'yes' if row.ordered() else '**no**'} |"
    )


def write(rows: list[Row], out: Path, command: str) -> None:
    lines = [
        "# Bot strength",
        "",
        f"`{command}` — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.",
        "",
        f"Two seats per level ({2 * SEATS_PER_LEVEL} players), seats rotating from match to "
        f"match in whole rotations. A Remi match is {REMI_SERIES} games, a Thai Rummy match "
        "runs to 500 (the game's series rules); other games' matches are one hand. "
        "Differences are the first level minus the second, paired within each hand (or "
        "match), with 95% normal intervals. *Won per seat*: the share of a level's seats that "
        "won (with two seats each, a level that wins every hand is at 50%; double it for the "
        "share of hands the level won). *Ordered*: every difference's interval is above 0. "
        "CPU: process time of one bot move (the view and the choice), no pause.",
        "",
        HEADER,
        *(line(row) for row in rows),
        "",
        "## CPU per bot move, by game (all rows)",
        "",
        "| game | level | moves | p50 (ms) | p99 (ms) | max (ms) |",
        "|---|---|---|---|---|---|",
    ]
    by_game: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        for level, values in row.thinking.items():
            by_game.setdefault((row.game, level), []).extend(values)
    for (game, level), values in by_game.items():
        ordered = sorted(values)
        lines.append(
            f"| {game} | {level} | {len(ordered)} | {1000 * percentile(ordered, 0.5):.1f} | "
            f"{1000 * percentile(ordered, 0.99):.1f} | {1000 * ordered[-1]:.1f} |"
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="hands per pairing (at least)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="repeatable")
    parser.add_argument(
        "--presets",
        default="families",
        help="'families', 'default', 'others' (families but the default) or names",
    )
    parser.add_argument("--pairings", default="hard/normal,normal/easy")
    parser.add_argument("--seed", default="strength")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    game_keys = args.game or list(GAMES)
    if args.presets not in ("families", "default", "others"):
        # A misspelt name would otherwise run nothing for its game and look like a full run.
        valid = sorted({name for key in game_keys for name in get_game(key).presets})
        unknown = [name for name in args.presets.split(",") if name not in valid]
        if unknown:
            parser.error(
                f"unknown preset {', '.join(unknown)} for {', '.join(game_keys)}; "
                f"valid: families, default, others, {', '.join(valid)}"
            )
    pairings = [tuple(p.split("/")) for p in args.pairings.split(",")]
    command = "python bench/strength.py " + " ".join(sys.argv[1:] if argv is None else argv)
    pool = ProcessPoolExecutor(args.processes) if args.processes > 1 else None
    rows: list[Row] = []
    try:
        for game_key in game_keys:
            game = get_game(game_key)
            if args.presets == "families":
                presets = families(game_key)
            elif args.presets == "default":
                presets = [game.default_preset]
            elif args.presets == "others":
                presets = [p for p in families(game_key) if p != game.default_preset]
            else:
                presets = [p for p in args.presets.split(",") if p in game.presets]
            for preset in presets:
                for a, b in pairings:
                    row = play_row(game_key, preset, a, b, args.games, args.seed, pool)
                    rows.append(row)
                    print(line(row), f"({row.seconds:.0f} s)", flush=True)
                    write(rows, args.out, command)
    finally:
        if pool is not None:
            pool.shutdown()
    print(
        statistics.fmean(1.0 if r.ordered() else 0.0 for r in rows) if rows else 0,
        "of the rows ordered",
    )


if __name__ == "__main__":
    main()
