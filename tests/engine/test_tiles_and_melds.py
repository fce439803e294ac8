"""Rules 1, 6 and 7: the tiles, the players, runs, sets and Jolys.

Meld values are worked out by hand from rule 8: 2-9 are 5, 10-13 are 10, a 1 is 5 in
1-2-3, 10 in 12-13-1 and 25 in a set of 1s; a Joly is worth the tile it stands for.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import InvalidAction, InvalidMeld
from games.engine.remi import REMI, Group, classify, new_game, parse_tiles
from games.engine.remi.melds import RUN, SET, extend
from games.engine.tiles import JOKER, Tile, full_set


def meld(text: str):
    group = Group.of(text)
    return classify(group.tiles, REMI, group.designations())


# --- rule 1: the tiles and the players ----------------------------------------------------


def test_full_set_is_106_tiles_two_of_each_colour_and_number_and_two_jolys():
    tiles = full_set()
    assert len(tiles) == 106
    counts = Counter(tiles)
    assert counts[JOKER] == 2
    for colour in "RYBK":
        for number in range(1, 14):
            assert counts[Tile(colour, number)] == 2
    assert len(counts) == 4 * 13 + 1


def test_tile_notation_reads_colour_letter_and_number():
    assert parse_tiles("R12 y1 B7 k13 J") == [
        Tile("R", 12),
        Tile("Y", 1),
        Tile("B", 7),
        Tile("K", 13),
        JOKER,
    ]


@pytest.mark.parametrize("bad", ["R0", "R14", "G5", "5R", "JJ", "R"])
def test_tile_notation_refuses_tiles_that_do_not_exist(bad):
    with pytest.raises(InvalidAction):
        parse_tiles(bad)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_can_sit(players):
    state = new_game(REMI, ["Ana", "Bogdan", "Cristi", "Dana"][:players], "seats")
    assert state.players == players


@pytest.mark.parametrize("names", [["Ana"], ["Ana", "Bogdan", "Cristi", "Dana", "Elena"]])
def test_one_or_five_players_cannot_sit(names):
    with pytest.raises(InvalidAction):
        new_game(REMI, names, "seats")


# --- rules 6 and 7: melds -----------------------------------------------------------------

# (tiles, kind, what each slot stands for in table order, first-meld points worked by hand)
LEGAL = [
    ("R1 R2 R3", RUN, "R1 R2 R3", 5 + 5 + 5),
    ("R3 R1 R2", RUN, "R1 R2 R3", 15),  # order on the rack does not matter
    ("R12 R13 R1", RUN, "R12 R13 R1", 10 + 10 + 10),  # 1 after the 13 is worth 10
    ("Y9 Y10 Y11 Y12", RUN, "Y9 Y10 Y11 Y12", 5 + 10 + 10 + 10),
    ("B2 B3 B4 B5 B6 B7 B8", RUN, "B2 B3 B4 B5 B6 B7 B8", 7 * 5),
    # 1-13 and the other 1: both 1s sit at an end (reading in docs/rules.md); 5 + 8*5 + 4*10 + 10
    (
        "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1",
        RUN,
        "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1",
        95,
    ),
    ("K5 B5 Y5", SET, "Y5 B5 K5", 15),
    ("K5 B5 Y5 R5", SET, "R5 Y5 B5 K5", 20),
    ("R10 Y10 K10", SET, "R10 Y10 K10", 30),
    ("K1 B1 Y1", SET, "Y1 B1 K1", 75),  # 1s in a set are 25 each
    ("R1 Y1 B1 K1", SET, "R1 Y1 B1 K1", 100),
    # Jolys: in the middle of a run the Joly is the missing tile
    ("R4 J R6", RUN, "R4 R5 R6", 15),
    ("R9 J R11", RUN, "R9 R10 R11", 5 + 10 + 10),
    # at an end, said by the player
    ("B9 B10 J=B11", RUN, "B9 B10 B11", 25),
    ("B9 B10 J=B8", RUN, "B8 B9 B10", 20),
    ("R2 R3 J=R1", RUN, "R1 R2 R3", 15),
    ("R12 R13 J=R1", RUN, "R12 R13 R1", 30),
    # not said: the highest-valued reading; ties keep the run open, then go higher
    ("R4 R5 J", RUN, "R4 R5 R6", 15),
    ("B9 B10 J", RUN, "B9 B10 B11", 25),  # B11 (10) beats B8 (5)
    ("R12 R13 J", RUN, "R11 R12 R13", 30),  # R11 and high R1 are both 10: keep it open
    ("R11 R12 J", RUN, "R11 R12 R13", 30),  # R10 and R13 both 10: the higher end
    ("R13 R1 J", RUN, "R12 R13 R1", 30),  # 13-1-2 is impossible, so the Joly is R12
    # a Joly in a set stands for a missing colour and is worth the set's number
    ("K7 B7 J", SET, "R7 B7 K7", 15),
    ("K1 B1 J", SET, "R1 B1 K1", 75),
    ("K7 B7 Y7 J", SET, "R7 Y7 B7 K7", 20),
    ("K7 B7 J=Y7", SET, "Y7 B7 K7", 15),
    # two Jolys need four real tiles (the source's own example)
    ("Y3 J Y5 J Y7 Y8", RUN, "Y3 Y4 Y5 Y6 Y7 Y8", 30),
]


@pytest.mark.parametrize(("text", "kind", "stands", "points"), LEGAL)
def test_legal_melds_are_recognised_with_their_value(text, kind, stands, points):
    result = meld(text)
    assert result.kind == kind
    assert sorted(map(str, result.stands_for)) == sorted(stands.split())
    if kind == RUN:  # a run is laid out low to high
        assert " ".join(map(str, result.stands_for)) == stands
    assert result.points == points
    assert Counter(result.tiles) == Counter(Group.of(text).tiles)


ILLEGAL = [
    ("R5 R6", "two tiles are not a meld"),
    ("R13 R1 R2", "a 1 never sits in the middle of a run"),
    ("R13 R1 R2 R3", "a 1 never sits in the middle of a run"),
    ("R5 R6 R8", "not consecutive"),
    ("R5 Y6 R7", "a run is one colour"),
    ("R5 R5 R6", "a run cannot hold the same number twice"),
    ("K5 K5 B5", "a set needs different colours"),
    ("K5 B5 Y6", "a set is one number"),
    ("K5 B5 Y5 R5 R5", "a set has at most four tiles"),
    ("R1 R1 R2", "two 1s cannot both be at the ends of three tiles"),
    ("K5 J J", "two Jolys with one real tile"),
    ("K5 B5 J J", "a set can never hold two Jolys"),
    ("Y3 J Y5 J Y7", "a run needs six tiles to hold two Jolys (the source's example)"),
    ("R5 R6 J=B7", "a Joly in a red run stands for a red tile"),
    ("R5 R6 J=R9", "the Joly must be next to the run"),
    ("K7 B7 J=K7", "a Joly in a set stands for a missing colour"),
    ("K7 B7 J=R8", "a Joly in a set of 7s stands for a 7"),
    ("R12 R13 J=R2", "13-1-2 again, through a Joly"),
]


@pytest.mark.parametrize(("text", "why"), ILLEGAL)
def test_illegal_melds_are_refused(text, why):
    with pytest.raises(InvalidMeld):
        meld(text)


def test_fourteen_tiles_is_the_longest_run():
    with pytest.raises(InvalidMeld):
        meld("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1 J")


def test_a_joly_at_the_end_of_a_run_is_never_reassigned():
    # The source's example: B9 B10 J(=B11) can take B12 but the Joly cannot become B8 for B7.
    run = meld("B9 B10 J=B11")
    longer = extend(run, parse_tiles("B12"))
    assert [str(t) for t in longer.stands_for] == ["B9", "B10", "B11", "B12"]
    assert [str(t) for t in longer.tiles] == ["B9", "B10", "J", "B12"]
    with pytest.raises(InvalidMeld):
        extend(run, parse_tiles("B7"))


def test_a_joly_said_to_be_the_low_end_stays_low():
    run = meld("B9 B10 J=B8")
    with pytest.raises(InvalidMeld):
        extend(run, parse_tiles("B12"))  # B11 is missing: the Joly stays B8
    assert [str(t) for t in extend(run, parse_tiles("B7")).stands_for] == ["B7", "B8", "B9", "B10"]


def test_a_run_grows_at_either_end_but_not_past_the_high_one():
    run = meld("R11 R12 R13")
    assert [str(t) for t in extend(run, parse_tiles("R1 R10")).stands_for] == [
        "R10",
        "R11",
        "R12",
        "R13",
        "R1",
    ]
    topped = meld("R12 R13 R1")
    with pytest.raises(InvalidMeld):
        extend(topped, parse_tiles("R2"))  # 13-1-2


def test_a_set_grows_by_a_missing_colour_only():
    trio = meld("K5 B5 Y5")
    assert sorted(map(str, extend(trio, parse_tiles("R5")).tiles)) == ["B5", "K5", "R5", "Y5"]
    for bad in ("K5", "R6"):
        with pytest.raises(InvalidMeld):
            extend(trio, parse_tiles(bad))
    with pytest.raises(InvalidMeld):
        extend(meld("R5 Y5 B5 K5"), parse_tiles("J"))  # five tiles


def test_a_second_joly_joins_a_run_only_when_it_keeps_twice_as_many_real_tiles():
    run = meld("R5 R6 J=R7 R8")  # 3 real, 1 Joly
    with pytest.raises(InvalidMeld):
        extend(run, parse_tiles("J"))  # 3 real, 2 Jolys
    grown = extend(run, parse_tiles("R9 J"))  # 4 real, 2 Jolys
    assert grown.joker_count == 2
    assert len(grown.tiles) == 6
