"""A match of several games is kept above the engine (games.engine.core.series); the engine
gives it per-seat scores and its limits."""

from __future__ import annotations

import random

from games.engine.core.series import start_series
from games.engine.rummikub import GAME, RUMMIKUB, apply, choose, player_view


def play_out(state, rng):
    while not state.over:
        action = choose(player_view(state, state.turn), "normal", rng)
        state, _ = apply(state, state.turn, action)
    return state


def test_a_match_of_three_games_adds_the_scores_and_passes_the_start_on():
    rules = RUMMIKUB.with_options(series_games=3)
    series = start_series(GAME, rules, ["ana", "bogdan"], "match")
    rng = random.Random(1)
    starts, totals = [], [0, 0]
    while not series.over:
        game = series.next_game()
        starts.append(game.turn)
        assert game.turn == (series.dealer + 1) % 2
        finished = play_out(game, rng)
        totals = [t + s for t, s in zip(totals, GAME.outcome(finished).scores, strict=True)]
        series = series.record(finished)
    assert len(series.games) == 3
    assert series.totals == totals
    assert starts[0] != starts[1] and starts[1] != starts[2]


def test_a_match_to_a_target_score_ends_when_someone_reaches_it():
    rules = RUMMIKUB.with_options(series_games=None, target_score=1)
    series = start_series(GAME, rules, ["ana", "bogdan", "cristi"], "target")
    rng = random.Random(2)
    while not series.over:
        series = series.record(play_out(series.next_game(), rng))
    assert max(series.totals) >= 1
    assert GAME.series_limits(rules) == (None, 1)
    assert GAME.series_limits(RUMMIKUB) == (1, None)
