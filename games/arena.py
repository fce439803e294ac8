"""Bots against bots with the engine alone, and the statistics to compare them.

Seats rotate from game to game so no level keeps the advantage of playing first.  A level's
strength is its mean score per game; two levels are compared on the difference of their mean
scores *in the same games* (paired), which cancels the luck of the deal they shared.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from games.engine import REMI, Rules, apply, new_game, player_view
from games.engine.bots import choose_action
from games.engine.randomplay import actor
from games.engine.state import OVER

Z95 = 1.959964  # two-sided 95% normal quantile
MAX_ACTIONS = 5000


@dataclass(frozen=True)
class GameResult:
    levels: tuple[str, ...]  # by seat
    scores: tuple[int, ...]
    winner: int | None
    actions: int


def play_bot_game(levels: Sequence[str], seed: str, rules: Rules = REMI) -> GameResult:
    state = new_game(rules, [f"{level} {i + 1}" for i, level in enumerate(levels)], seed)
    rng = random.Random(f"{seed}/bots")
    actions = 0
    while state.phase != OVER:
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"arena game {seed} did not finish in {MAX_ACTIONS} actions")
        seat = actor(state)
        action = choose_action(player_view(state, seat), levels[seat], rng)
        state, _ = apply(state, seat, action)
    assert state.result is not None
    return GameResult(tuple(levels), state.result.scores, state.result.winner, actions)


def seating(levels: Sequence[str], game: int) -> tuple[str, ...]:
    shift = game % len(levels)
    return tuple(levels[shift:]) + tuple(levels[:shift])


def run_arena(
    levels: Sequence[str],
    games: int,
    seed: int | str,
    rules: Rules = REMI,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    results = []
    for number in range(games):
        results.append(play_bot_game(seating(levels, number), f"{seed}/{number}", rules))
        if progress:
            progress(1)
    return results


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float

    def excludes(self, value: float) -> bool:
        return not self.low <= value <= self.high

    def __str__(self) -> str:
        return f"{self.mean:8.1f}  [{self.low:7.1f}, {self.high:7.1f}]"


def mean_interval(values: Sequence[float]) -> Interval:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Interval(mean, -math.inf, math.inf)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half)


def wilson_interval(successes: int, trials: int) -> Interval:
    """95% Wilson score interval for a proportion (sound near 0 and 1, unlike mean ± 2 SE)."""
    if trials == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Interval(p, centre - half, centre + half)


@dataclass
class LevelSummary:
    level: str
    seat_games: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)  # mean score of the level's seats, per game

    @property
    def win_rate(self) -> Interval:
        return wilson_interval(self.wins, self.seat_games)

    @property
    def score(self) -> Interval:
        return mean_interval(self.scores)


def summarise(results: Iterable[GameResult]) -> dict[str, LevelSummary]:
    summary: dict[str, LevelSummary] = {}
    for result in results:
        per_level: dict[str, list[int]] = {}
        for seat, level in enumerate(result.levels):
            per_level.setdefault(level, []).append(result.scores[seat])
            entry = summary.setdefault(level, LevelSummary(level))
            entry.seat_games += 1
            entry.wins += result.winner == seat
        for level, scores in per_level.items():
            summary[level].scores.append(statistics.fmean(scores))
    return summary


def paired_difference(results: Sequence[GameResult], a: str, b: str) -> Interval:
    """Mean over games of (mean score of ``a`` seats - mean score of ``b`` seats)."""
    diffs = []
    for result in results:
        mine = [s for lv, s in zip(result.levels, result.scores, strict=True) if lv == a]
        theirs = [s for lv, s in zip(result.levels, result.scores, strict=True) if lv == b]
        if mine and theirs:
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
    return mean_interval(diffs)
