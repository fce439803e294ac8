"""Runs and sets: recognising them in any order, their value, and why tiles are not a meld."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.rummikub import RUN, SET, InvalidMeld, MeldFault, classify, parse_tiles
from games.engine.tiles import COLOURS, JOKER, Tile
from tests.scale import examples


def meld(text: str, jokers_as: str | None = None):
    return classify(parse_tiles(text), jokers_as=parse_tiles(jokers_as) if jokers_as else None)


@pytest.mark.parametrize(
    ("tiles", "kind", "notation", "points"),
    [
        ("R1 R2 R3", RUN, "R1 R2 R3", 6),
        ("B13 B11 B12", RUN, "B11 B12 B13", 36),
        ("Y9 Y10 Y11 Y12 Y13", RUN, "Y9 Y10 Y11 Y12 Y13", 55),
        ("K7 Y7 B7", SET, "Y7 B7 K7", 21),
        ("R1 Y1 B1 K1", SET, "R1 Y1 B1 K1", 4),
        # A joker counts as the tile it stands for; with a free end the higher reading wins.
        ("R5 R6 J", RUN, "R5 R6 J=R7", 18),
        ("J R3 R5", RUN, "R3 J=R4 R5", 12),
        ("R12 R13 J", RUN, "J=R11 R12 R13", 36),
        ("K7 Y7 J", SET, "Y7 K7 J=R7", 21),
        # Two jokers and one tile: the highest-valued reading (a run up, or a set of 13s).
        ("J J R5", RUN, "R5 J=R6 J=R7", 18),
        ("K13 J J", SET, "K13 J=Y13 J=B13", 39),
    ],
)
def test_melds_in_any_order_take_the_highest_reading(tiles, kind, notation, points):
    found = meld(tiles)
    assert (found.kind, found.notation(), found.points) == (kind, notation, points)


def test_a_given_joker_reading_is_kept_even_when_worth_less():
    assert meld("R5 R6 J", "R4").notation() == "J=R4 R5 R6"
    assert meld("R5 R6 J", "R4").points == 15
    assert meld("K7 Y7 J", "B7").jokers_as == (Tile("B", 7),)


def test_readings_of_two_jokers_may_be_given_in_any_order():
    assert meld("J R5 R6 J", "R7 R4").notation() == "J=R4 R5 R6 J=R7"
    assert meld("J R5 R6 J", "R4 R7").notation() == "J=R4 R5 R6 J=R7"


@pytest.mark.parametrize(
    ("tiles", "code"),
    [
        ("R1 R2", "too-short"),
        ("R12 R13 R1", "run-gap"),  # a 1 never follows the 13
        ("R13 R1 R2", "run-gap"),
        ("R3 R5 R7", "run-gap"),
        ("K4 K4 Y4", "set-repeats-colour"),  # all colours of a set differ
        ("R4 Y4 B4 K4 J", "set-too-long"),
        ("R4 R5 R5", "run-repeats-number"),
        ("R4 Y5 B6", "mixed"),
        ("R4 R5 J", None),  # control: this one is fine
    ],
)
def test_invalid_melds_say_why(tiles, code):
    if code is None:
        assert meld(tiles).kind == RUN
        return
    with pytest.raises(MeldFault) as info:
        meld(tiles)
    assert info.value.code == code
    assert isinstance(info.value, InvalidMeld) and isinstance(info.value, ValueError)
    assert str(info.value)  # a readable reason, as the engine contract asks


def test_a_joker_reading_that_does_not_fit_is_refused():
    with pytest.raises(MeldFault) as info:
        meld("R5 R6 J", "R9")
    assert info.value.code == "joker-reading"
    with pytest.raises(MeldFault):
        meld("K7 Y7 J", "K7")  # a set's joker stands for a missing colour


def test_one_is_only_low():
    assert meld("R1 R2 J").notation() == "R1 R2 J=R3"
    assert meld("J R13 R12").notation() == "J=R11 R12 R13"


runs = st.builds(
    lambda colour, start, size, jokers: (colour, start, min(size, 14 - start), jokers),
    st.sampled_from(COLOURS),
    st.integers(1, 11),
    st.integers(3, 13),
    st.integers(0, 2),
)


@settings(max_examples=examples(300), deadline=None)
@given(runs, st.randoms(use_true_random=False))
def test_any_run_in_any_order_is_a_run_worth_its_numbers(spec, rnd):
    colour, start, size, jokers = spec
    tiles = [Tile(colour, n) for n in range(start, start + size)]
    # Jokers replace inner tiles (never all of them), so the reading is forced.
    replaced = [i for i in range(1, size - 1)][:jokers]
    played = [JOKER if i in replaced else t for i, t in enumerate(tiles)]
    rnd.shuffle(played)
    found = classify(played)
    assert found.kind == RUN
    assert list(found.stands_for) == tiles
    assert found.points == sum(range(start, start + size))


@settings(max_examples=examples(200), deadline=None)
@given(
    st.integers(1, 13),
    st.lists(st.sampled_from(COLOURS), min_size=2, max_size=4, unique=True),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_sets_of_different_colours_are_sets_up_to_four_tiles(number, colours, jokers, rnd):
    tiles = [Tile(c, number) for c in colours] + [JOKER] * jokers
    rnd.shuffle(tiles)
    if not 3 <= len(tiles) <= 4:
        with pytest.raises(MeldFault):
            classify(tiles)
        return
    found = classify(tiles, jokers_as=[None] * jokers)
    # Two jokers and a tile can also make a run; otherwise it is the set.
    assert found.kind == SET or len(colours) == 1
    if found.kind == SET:
        assert found.points == number * len(tiles)
        assert len({s.colour for s in found.stands_for}) == len(tiles)
        assert {t.colour for t in tiles if not t.is_joker} <= {s.colour for s in found.stands_for}
