"""Starting a game: who opens, the racks and the stock."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.rummikub import RUMMIKUB, InvalidAction, new_game
from games.engine.rummikub.rules import START_RANDOM
from games.engine.tiles import full_set, parse_tile


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fourteen_tiles_each_and_the_rest_is_the_stock(players):
    state = new_game(RUMMIKUB, players, "deal")
    assert [len(r) for r in state.racks] == [14] * players
    assert len(state.stock) == 106 - 14 * players
    assert Counter(state.stock) + sum((Counter(r) for r in state.racks), Counter()) == Counter(
        full_set()
    )
    assert state.table == [] and state.melded == [False] * players


def test_rack_size_is_an_option():
    state = new_game(RUMMIKUB.with_options(rack_size=10), 3, "deal")
    assert [len(r) for r in state.racks] == [10, 10, 10]


def test_the_highest_opening_draw_starts():
    for seed in range(30):
        state = new_game(RUMMIKUB, 4, f"draw-{seed}")
        last = state.opening_draws[-1]
        numbers = {s: parse_tile(t).number for s, t in enumerate(last) if t is not None}
        assert state.first_player == state.turn == max(numbers, key=numbers.get)
        assert list(numbers.values()).count(max(numbers.values())) == 1
        # Earlier rounds were ties for the highest; only the tied seats drew again.
        for earlier, later in zip(state.opening_draws, state.opening_draws[1:], strict=False):
            drawn = {s: parse_tile(t).number for s, t in enumerate(earlier) if t is not None}
            best = max(drawn.values())
            assert {s for s, t in enumerate(later) if t} == {
                s for s, n in drawn.items() if n == best
            }
        # A joker has no number: it is never a seat's opening tile.
        assert all(t != "J" for row in state.opening_draws for t in row)


def test_ties_happen_and_are_drawn_again():
    tied = [
        s
        for s in (new_game(RUMMIKUB, 4, f"tie-{i}") for i in range(60))
        if len(s.opening_draws) > 1
    ]
    assert tied  # 60 four-player games without one tie would be very odd


def test_random_start_option():
    rules = RUMMIKUB.with_options(starting_player=START_RANDOM)
    firsts = {new_game(rules, 4, f"r{i}").first_player for i in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_game(rules, 4, "r1").opening_draws == []


def test_a_named_dealer_makes_the_next_seat_start_with_the_same_deal():
    plain = new_game(RUMMIKUB, 3, "series")
    for dealer in range(3):
        state = new_game(RUMMIKUB, 3, "series", dealer)
        assert state.turn == (dealer + 1) % 3
        assert state.racks == plain.racks and state.stock == plain.stock


def test_same_seed_same_game_other_seed_other_game():
    assert new_game(RUMMIKUB, 2, "a").to_dict() == new_game(RUMMIKUB, 2, "a").to_dict()
    assert new_game(RUMMIKUB, 2, "a").racks != new_game(RUMMIKUB, 2, "b").racks


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(InvalidAction):
        new_game(RUMMIKUB, players, "x")


def test_rules_refuse_unknown_or_bad_options():
    with pytest.raises(InvalidAction):
        RUMMIKUB.from_dict({**RUMMIKUB.to_dict(), "bonus": 1})
    with pytest.raises(InvalidAction):
        RUMMIKUB.with_options(joker_replacement="anything")
    with pytest.raises(InvalidAction):
        RUMMIKUB.with_options(stock_exhausted="reshuffle")
    assert RUMMIKUB.from_dict(RUMMIKUB.to_dict()) == RUMMIKUB
