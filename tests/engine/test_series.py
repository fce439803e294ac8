"""Rule 16 (and rule 2's passing deal): a series of games, totals kept, the deal passing on,
ending after ``series_games`` games or when someone reaches ``target_score``."""

from __future__ import annotations

import pytest

from games.engine.remi import REMI, Series, new_series
from games.engine.remi.scenario import position
from games.engine.remi.state import PLAY

from .helpers import play

NAMES = ["Ana", "Bogdan", "Cristi"]


def won_by(seat: int):
    """A finished three-player game: ``seat`` goes out with 100, the others never melded."""
    racks = ["B4", "B5", "B6"]
    racks[seat] = "K9"
    state = position(racks, melded=[seat], turn=seat, phase=PLAY, discards="K4")
    state, _ = play(state, (seat, "discard K9"))
    assert state.result.scores == tuple(100 if s == seat else -200 for s in range(3))
    return state


def test_the_deal_passes_to_the_next_seat_after_each_game():
    series = new_series(REMI.with_options(series_games=4), NAMES, "passing")
    first_dealer = series.dealer
    game = series.next_game()
    assert game.dealer == first_dealer
    assert game.first_player == (first_dealer + 1) % 3
    for played in range(1, 4):
        previous = game
        series = series.record(won_by(0))
        game = series.next_game()
        # The new dealer is the previous game's first player, the seat after the old dealer.
        assert game.dealer == previous.first_player == (first_dealer + played) % 3
        assert game.racks != previous.racks  # a fresh deal each game
    assert series.record(won_by(0)).dealer == (first_dealer + 4) % 3


def test_totals_are_kept_across_games():
    series = Series(REMI.with_options(series_games=None), NAMES, "totals", dealer=0)
    series = series.record(won_by(0)).record(won_by(1)).record(won_by(1))
    # Ana 100 - 200 - 200; Bogdan -200 + 100 + 100; Cristi 3 x -200
    assert series.totals == [-300, 0, -600]
    assert series.games == [[100, -200, -200], [-200, 100, -200], [-200, 100, -200]]


def test_the_series_ends_after_its_number_of_games():
    series = Series(REMI.with_options(series_games=2), NAMES, "two", dealer=1)
    series = series.record(won_by(0))
    assert not series.over
    series.next_game()
    series = series.record(won_by(2))
    assert series.over
    with pytest.raises(ValueError):
        series.next_game()


def test_one_game_by_default():
    series = Series(REMI, NAMES, "one", dealer=0)
    assert not series.over
    assert series.record(won_by(1)).over


def test_the_series_ends_when_someone_reaches_the_target():
    rules = REMI.with_options(series_games=None, target_score=200)
    series = Series(rules, NAMES, "target", dealer=0)
    series = series.record(won_by(1))
    assert not series.over  # Bogdan 100
    series = series.record(won_by(1))
    assert series.totals[1] == 200
    assert series.over


def test_whichever_limit_comes_first_ends_the_series():
    rules = REMI.with_options(series_games=3, target_score=200)
    series = Series(rules, NAMES, "first", dealer=0).record(won_by(0)).record(won_by(0))
    assert series.over  # the target, before the third game
    rules = REMI.with_options(series_games=2, target_score=1000)
    series = Series(rules, NAMES, "first", dealer=0).record(won_by(0)).record(won_by(0))
    assert series.over  # the number of games


def test_without_limits_the_series_goes_on():
    series = Series(REMI.with_options(series_games=None), NAMES, "endless", dealer=0)
    for _ in range(6):
        series = series.record(won_by(2))
    assert not series.over
    assert series.totals[2] == 600


def test_only_a_finished_game_is_recorded():
    series = Series(REMI, NAMES, "unfinished", dealer=0)
    with pytest.raises(ValueError):
        series.record(series.next_game())


def test_a_series_survives_a_round_trip_through_json_data():
    series = Series(REMI.with_options(series_games=5), NAMES, "json", dealer=2).record(won_by(0))
    again = Series.from_dict(series.to_dict())
    assert again.to_dict() == series.to_dict()
    assert again.next_game().to_dict() == series.next_game().to_dict()
