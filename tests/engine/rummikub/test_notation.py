"""The action notation round-trips, and meld recognition agrees with itself, for any tiles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rummikub import MeldFault, Play, classify, parse_action
from games.engine.rummikub.actions import Group
from games.engine.tiles import COLOURS, JOKER, Tile
from tests.scale import examples

numbered = st.builds(Tile, st.sampled_from(COLOURS), st.integers(1, 13))
any_tile = st.one_of(numbered, st.just(JOKER))


@st.composite
def groups(draw) -> Group:
    tiles = tuple(draw(st.lists(any_tile, min_size=1, max_size=6)))
    jokers = sum(t.is_joker for t in tiles)
    if jokers and draw(st.booleans()):
        readings = tuple(draw(st.one_of(st.none(), numbered)) for _ in range(jokers))
        if any(r is not None for r in readings):
            return Group(tiles, readings)
    return Group(tiles)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(groups(), min_size=1, max_size=8))
def test_play_notation_round_trips(melds):
    play = Play(tuple(melds))
    assert parse_action(str(play)) == play
    assert str(parse_action(str(play))) == str(play)


@st.composite
def near_melds(draw) -> list[Tile]:
    """A run or a set, some tiles swapped for jokers, sometimes one stray tile: mostly melds,
    often not."""
    if draw(st.booleans()):
        colour, start = draw(st.sampled_from(COLOURS)), draw(st.integers(1, 13))
        size = draw(st.integers(2, 14 - start)) if start < 13 else 1
        tiles = [Tile(colour, n) for n in range(start, start + size)]
    else:
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=4, unique=True))
        tiles = [Tile(c, number) for c in colours]
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = JOKER
    if draw(st.integers(0, 3)) == 0:
        tiles.append(draw(any_tile))
    return tiles


@settings(max_examples=examples(800), deadline=None)
@given(
    st.one_of(st.lists(any_tile, min_size=1, max_size=7), near_melds()),
    st.randoms(use_true_random=False),
)
def test_a_meld_is_read_the_same_whatever_the_order_and_keeps_its_tiles(tiles, rnd):
    try:
        meld = classify(tiles)
    except MeldFault as fault:
        assert fault.code and str(fault)
        shuffled = list(tiles)
        rnd.shuffle(shuffled)
        with pytest.raises(MeldFault):
            classify(shuffled)
        return
    assert sorted(meld.tiles) == sorted(tiles)
    assert meld.points == sum(s.number for s in meld.stands_for)
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert classify(shuffled) == meld
    # Giving the readings it chose reads the same meld back.
    assert classify(meld.tiles, jokers_as=list(meld.jokers_as)) == meld
