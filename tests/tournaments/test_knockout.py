"""Knockout brackets: classic examples, and every field of 5-64 players checked for
placement, byes and the flow of players from round to round."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.formats.knockout import knockout


def seeds_of(table):
    return [slot.seed for slot in table.slots]


def test_eight_players_classic_bracket():
    bracket = knockout(list("abcdefgh"), [8, 7, 6, 5, 4, 3, 2, 1], 2)
    assert [seeds_of(t) for t in bracket.rounds[0]] == [[1, 8], [4, 5], [2, 7], [3, 6]]
    assert len(bracket.rounds) == 3 and bracket.byes == ()


def test_five_players_top_three_have_byes():
    bracket = knockout(list("abcde"), [5, 4, 3, 2, 1], 2)
    assert bracket.byes == ("a", "b", "c")
    assert [seeds_of(t) for t in bracket.rounds[0]] == [[4, 5]]


def test_seeding_follows_ratings():
    bracket = knockout(["low", "high", "mid"], [1000, 1800, 1500], 2)
    assert bracket.seeds == ("high", "mid", "low")


def favourites_win(bracket):
    """Play the bracket with the better seed always winning; the final's seeds."""
    places: dict[tuple[int, int, int], int] = {}
    for number, tables in enumerate(bracket.rounds):
        for t, table in enumerate(tables):
            present = sorted(
                slot.seed if slot.seed is not None else places[slot.source] for slot in table.slots
            )
            for place, seed in enumerate(present):
                places[(number, t, place)] = seed
    return present


CASES = [(2, 1), (3, 1), (4, 1), (4, 2)]


@pytest.mark.parametrize(("seats", "advance"), CASES)
@pytest.mark.parametrize("size", range(5, 65))
def test_brackets_place_everyone_once_with_byes_to_top_seeds(seats, advance, size):
    players = [f"p{i}" for i in range(size)]
    bracket = knockout(players, list(range(size, 0, -1)), seats, advance=advance)
    first = [slot.player for table in bracket.rounds[0] for slot in table.slots]
    assert sorted([*first, *bracket.byes]) == sorted(players)  # each exactly once
    bye_seeds = [bracket.seeds.index(p) + 1 for p in bracket.byes]
    assert bye_seeds == list(range(1, len(bracket.byes) + 1))  # the top seeds
    # Byes enter round two; nobody else appears by name after round one.
    named_later = [s.player for r in bracket.rounds[1:] for t in r for s in t.slots if s.player]
    assert sorted(named_later) == sorted(bracket.byes)
    for number, tables in enumerate(bracket.rounds):
        for table in tables:
            assert 2 <= len(table.slots) <= seats
            assert 1 <= table.advance < len(table.slots)
            if number > 0:
                assert len(table.slots) == seats  # round two on is a full bracket
        if number + 1 < len(bracket.rounds):
            # Every place that goes on fills exactly one later slot, in the next round.
            going_on = {
                (number, t, p) for t, table in enumerate(tables) for p in range(table.advance)
            }
            sources = Counter(
                s.source for t in bracket.rounds[number + 1] for s in t.slots if s.source
            )
            assert set(sources) == going_on and set(sources.values()) == {1}
    final = bracket.rounds[-1]
    assert len(final) == 1 and final[0].advance == 1
    # With the better seed always winning, the final holds the best seeds.
    assert favourites_win(bracket) == list(range(1, seats + 1))
