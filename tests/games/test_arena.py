from __future__ import annotations

import math

import pytest
from django.core.management import CommandError, call_command

from games.arena import (
    GameResult,
    mean_interval,
    paired_difference,
    play_bot_game,
    run_series,
    seating,
    summarise,
    wilson_interval,
)
from games.engine import get_game


def test_wilson_interval_matches_the_textbook_values():
    none = wilson_interval(0, 10)
    assert none.low == 0 and math.isclose(none.high, 0.2775, abs_tol=1e-4)
    half = wilson_interval(50, 100)
    assert math.isclose(half.low, 0.4038, abs_tol=1e-4)
    assert math.isclose(half.high, 0.5962, abs_tol=1e-4)


def test_mean_interval_is_mean_plus_minus_1_96_standard_errors():
    interval = mean_interval([1, 2, 3, 4])
    half = 1.959964 * math.sqrt(5 / 3) / 2
    assert interval.mean == 2.5
    assert math.isclose(interval.high - interval.mean, half)
    assert interval.excludes(0) and not interval.excludes(2)


def test_seats_rotate_from_game_to_game():
    levels = ["hard", "normal", "easy", "easy"]
    assert seating(levels, 0) == ("hard", "normal", "easy", "easy")
    assert seating(levels, 1) == ("normal", "easy", "easy", "hard")
    assert seating(levels, 4) == seating(levels, 0)


def test_summary_and_paired_difference_average_a_levels_seats_per_game():
    results = [
        GameResult(("hard", "easy", "easy"), (100, -20, 0), 0, 50),
        GameResult(("easy", "hard", "easy"), (10, 40, -30), 1, 60),
    ]
    summary = summarise(results)
    assert summary["hard"].wins == 2 and summary["hard"].seat_games == 2
    assert summary["easy"].scores == [-10, -10]
    assert paired_difference(results, "hard", "easy").mean == (110 + 50) / 2


def test_arena_command_prints_rates_scores_and_verdicts(capsys):
    call_command("arena", games=8, seats="normal,easy", seed="arena-test")
    out = capsys.readouterr().out
    assert "8 games, seats normal,easy (rotating)" in out
    assert out.count("[") >= 4  # a win-rate and a score interval per level
    assert "normal" in out and "easy" in out
    assert any(verdict in out for verdict in ("beats", "ties with", "loses to"))


@pytest.mark.parametrize("seats", ["hard", "hard,expert", "a,b,c,d,e"])
def test_arena_command_refuses_bad_seat_lists(seats):
    with pytest.raises(CommandError):
        call_command("arena", games=1, seats=seats)


def test_a_series_keeps_its_seating_passes_the_deal_and_is_won_on_total_score():
    results = run_series(["normal", "easy"], 3, 2, "series-test", game=get_game("remi"))
    assert [r.levels for r in results] == [
        ("normal", "easy"),
        ("easy", "normal"),
        ("normal", "easy"),
    ]
    for number, result in enumerate(results):
        # The match's totals are its two games' scores, dealt by seat 0 then seat 1.
        games = [
            play_bot_game(result.levels, f"series-test/{number}/{hand}", dealer=hand)
            for hand in range(2)
        ]
        assert result.scores == tuple(sum(g.scores[seat] for g in games) for seat in range(2))
        best = max(result.scores)
        expected = result.scores.index(best) if result.scores.count(best) == 1 else None
        assert result.winner == expected


def test_arena_command_plays_matches(capsys):
    call_command("arena", games=2, series=2, seats="normal,easy", seed="arena-series")
    out = capsys.readouterr().out
    assert "2 matches of 2 games, seats normal,easy (rotating)" in out
    assert "match win rate" in out and "score difference per match" in out


def test_arena_command_refuses_a_negative_series():
    with pytest.raises(CommandError, match="--series must be 0"):
        call_command("arena", games=2, series=-1, seats="normal,easy")
