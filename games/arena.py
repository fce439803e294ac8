"""Bots against bots with the engine alone (any game of the registry), and the statistics
to compare them.

Seats rotate from game to game so no level keeps the advantage of playing first.  A level's
strength is its mean score per game; two levels are compared on the difference of their mean
scores *in the same games* (paired), which cancels the luck of the deal they shared.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine import GAMES, GameEngine
from games.engine.core.series import Series

Z95 = 1.959964  # two-sided 95% normal quantile
MAX_ACTIONS = 5000


@dataclass(frozen=True)
class GameResult:
    levels: tuple[str, ...]  # by seat
    scores: tuple[int, ...]
    winner: int | None
    actions: int


def default_game() -> GameEngine:
    return next(iter(GAMES.values()))


def play_bot_game(
    levels: Sequence[str],
    seed: str,
    rules: Any = None,
    game: GameEngine | None = None,
    dealer: int | None = None,
    thinking: dict[str, list[float]] | None = None,
) -> GameResult:
    """One game of bots at ``levels`` (by seat); ``rules`` default to the game's own preset.
    When several seats act at once, the lowest seat moves first.  ``thinking``, when given,
    gets each bot move's CPU seconds (the view and the choice, as a bot task spends them)
    under its level."""
    return _finish(*_play(levels, seed, rules, game, dealer, thinking))


def _play(
    levels: Sequence[str],
    seed: str,
    rules: Any,
    game: GameEngine | None,
    dealer: int | None,
    thinking: dict[str, list[float]] | None,
    state: Any = None,
) -> tuple[GameEngine, Sequence[str], Any, int]:
    game = game or default_game()
    if rules is None:
        rules = game.presets[game.default_preset]
    if state is None:
        names = [f"{level} {i + 1}" for i, level in enumerate(levels)]
        state = game.new_game(rules, names, seed, dealer=dealer)
    rng = random.Random(f"{seed}/bots")
    actions = 0
    while to_act := game.to_act(state):
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"arena game {seed} did not finish in {MAX_ACTIONS} actions")
        seat = min(to_act)
        started = time.process_time()
        action = game.choose(game.player_view(state, seat), levels[seat], rng)
        if thinking is not None:
            thinking.setdefault(levels[seat], []).append(time.process_time() - started)
        state, _ = game.apply(state, seat, action)
    return game, levels, state, actions


def _finish(game: GameEngine, levels: Sequence[str], state: Any, actions: int) -> GameResult:
    outcome = game.outcome(state)
    assert outcome is not None
    winner = outcome.winners[0] if len(outcome.winners) == 1 else None
    return GameResult(tuple(levels), outcome.scores, winner, actions)


def seating(levels: Sequence[str], game: int) -> tuple[str, ...]:
    shift = game % len(levels)
    return tuple(levels[shift:]) + tuple(levels[:shift])


def run_arena(
    levels: Sequence[str],
    games: int,
    seed: int | str,
    rules: Any = None,
    progress: Callable[[int], None] | None = None,
    game: GameEngine | None = None,
) -> list[GameResult]:
    results = []
    for number in range(games):
        seats = seating(levels, number)
        results.append(play_bot_game(seats, f"{seed}/{number}", rules, game))
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


def win_share_difference(results: Sequence[GameResult], a: str, b: str) -> Interval:
    """Mean over games of (share of ``a``'s seats that won - share of ``b``'s seats that
    won): paired like the scores, so a level's edge is measured in the deals both played."""
    diffs = []
    for result in results:
        mine = [result.winner == seat for seat, lv in enumerate(result.levels) if lv == a]
        theirs = [result.winner == seat for seat, lv in enumerate(result.levels) if lv == b]
        if mine and theirs:
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
    return mean_interval(diffs)


def paired_difference(results: Sequence[GameResult], a: str, b: str) -> Interval:
    """Mean over games of (mean score of ``a`` seats - mean score of ``b`` seats)."""
    diffs = []
    for result in results:
        mine = [s for lv, s in zip(result.levels, result.scores, strict=True) if lv == a]
        theirs = [s for lv, s in zip(result.levels, result.scores, strict=True) if lv == b]
        if mine and theirs:
            diffs.append(statistics.fmean(mine) - statistics.fmean(theirs))
    return mean_interval(diffs)


# --- Series -----------------------------------------------------------------------------------
#
# A player judges a level by who wins the match, not the single game: a series is several
# games at one seating, the deal passing on, won by the highest total score (as a table's
# match of a fixed number of games is).


def run_series(
    levels: Sequence[str],
    series: int,
    games_per_series: int,
    seed: int | str,
    rules: Any = None,
    progress: Callable[[int], None] | None = None,
    game: GameEngine | None = None,
) -> list[GameResult]:
    """``series`` matches of ``games_per_series`` games each, seats rotating from match to
    match; each result holds the match's total scores and its winner (None on a shared top)."""
    results = []
    for number in range(series):
        seats = seating(levels, number)
        totals = [0] * len(seats)
        actions = 0
        for hand in range(games_per_series):
            played = play_bot_game(
                seats, f"{seed}/{number}/{hand}", rules, game, dealer=hand % len(seats)
            )
            totals = [t + s for t, s in zip(totals, played.scores, strict=True)]
            actions += played.actions
        best = max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == best]
        winner = leaders[0] if len(leaders) == 1 else None
        results.append(GameResult(tuple(seats), tuple(totals), winner, actions))
        if progress:
            progress(1)
    return results


def play_match(
    levels: Sequence[str],
    seed: str,
    rules: Any,
    game: GameEngine,
    hands: int | None,
    thinking: dict[str, list[float]] | None = None,
) -> tuple[list[GameResult], GameResult]:
    """One match at one seating: ``hands`` games with the deal passing to the next seat, or
    (``hands`` None) as long as the game's own series rules say (Thai Rummy to 500, the loser
    dealing).  Returns every game and the match (total scores; its winner, None on a tie).
    Each game is dealt from ``<seed>/<n>`` as in :func:`run_series`."""
    series = Series(rules, [f"{lv} {i + 1}" for i, lv in enumerate(levels)], seed, 0, game=game)
    played: list[GameResult] = []
    while (len(played) < hands) if hands is not None else not series.over:
        state = game.new_game(rules, series.seats, f"{seed}/{len(played)}", dealer=series.dealer)
        finished = _play(levels, f"{seed}/{len(played)}", rules, game, None, thinking, state)
        played.append(_finish(*finished))
        series = series.record(finished[2])
        if len(played) > 200:
            raise RuntimeError(f"arena match {seed} did not end in 200 games")
    totals = series.totals
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    match = GameResult(
        tuple(levels),
        tuple(totals),
        leaders[0] if len(leaders) == 1 else None,
        sum(r.actions for r in played),
    )
    return played, match
