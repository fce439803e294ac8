"""Rules 8 and 9: the first meld, and a turn before it.

Every total below is worked by hand: 2-9 are 5, 10-13 are 10, a 1 is 5 in 1-2-3, 10 in
12-13-1 and 25 in a set of 1s, and a Joly is worth the tile it stands for.
"""

from __future__ import annotations

import pytest

from games.engine.remi import PRESETS, REMI
from games.engine.remi import events as ev
from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW, PLAY
from games.presenters.remi.refusals import message_for

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan"]


def before_first_meld(tiles: str, rules=REMI, **kw):
    """Ana to play, never melded; Bogdan has melded R5 R6 R7 (meld 0)."""
    kw.setdefault("melds", [("R5 R6 R7", 1)])
    kw.setdefault("melded", [1])
    kw.setdefault("phase", PLAY)
    return position([tiles, "Y4 Y8 B11"], rules=rules, **kw)


ACCEPTED = [
    ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10", 9 * 5 + 10),
    ("R9 R10 R11 R12 | K2 B2 Y2", 5 + 30 + 15),  # exactly 50
    ("R11 R12 R13 R1 | K5 B5 Y5", 30 + 10 + 15),  # the 1 after the 13 is 10
    ("R1 R2 R3 | K1 B1 Y1", 15 + 3 * 25),  # 1-2-3: the 1 is 5; a set of 1s: 25 each
    ("R8 R9 J | K10 B10 Y10", 5 + 5 + 10 + 30),  # the free Joly reads as R10
    ("R8 R9 J=R7 | K10 B10 Y10 R10", 15 + 40),
    ("K11 K12 K13 | J B1 Y1", 30 + 3 * 25),  # a Joly in a set of 1s is worth 25
]


@pytest.mark.parametrize(("melds", "points"), ACCEPTED)
def test_a_first_meld_of_fifty_or_more_with_a_run_is_laid(melds, points):
    tiles = melds.replace("|", " ").replace("J=R7", "J") + " K7"
    state = before_first_meld(tiles)
    state, events = play(state, (0, f"meld {melds}"))
    assert kinds(events) == [ev.MELDED, ev.FEW_TILES]  # one tile left: announced
    assert events[0].count == points
    assert rack(state, 0) == bag("K7")
    assert state.melded_on[0] == state.turn_number
    assert len(state.melds) == 1 + melds.count("|") + 1


REFUSED_LOW = [
    ("R10 R11 R12 | K2 B2 Y2", 45),
    ("R12 R13 R1 | K5 B5 Y5", 45),  # 12-13-1 is 30, not enough with a set of 5s
    ("R8 R9 J=R7 | K10 B10 Y10", 45),  # the Joly said to be R7 is worth 5, not 10
    ("R1 R2 R3 R4 | K2 B2 Y2", 35),
]


@pytest.mark.parametrize(("melds", "points"), REFUSED_LOW)
def test_a_first_meld_under_fifty_is_refused(melds, points):
    tiles = melds.replace("|", " ").replace("J=R7", "J") + " K7"
    error = refused(before_first_meld(tiles), 0, f"meld {melds}", "first-meld-too-low")
    assert error.params == {"points": points, "needed": 50}
    assert message_for(error) == f"Your first meld is worth {points}; it needs 50."


def test_forty_five_is_enough_under_the_remi_45_option():
    tiles = "R10 R11 R12 K2 B2 Y2 K7"
    for rules in (REMI.with_options(first_meld_minimum=45), PRESETS["remi-45"]):
        state, events = play(before_first_meld(tiles, rules), (0, "meld R10 R11 R12 | K2 B2 Y2"))
        assert events[0].count == 45
        assert state.melded_on[0] is not None
    forty = before_first_meld("R9 R10 R11 K2 B2 Y2 K7", PRESETS["remi-45"])
    error = refused(forty, 0, "meld R9 R10 R11 | K2 B2 Y2", "first-meld-too-low")
    assert error.params == {"points": 40, "needed": 45}
    assert message_for(error) == "Your first meld is worth 40; it needs 45."


def test_a_first_meld_without_a_run_is_refused():
    state = before_first_meld("K1 B1 Y1 R1 K7")  # 100 points, but only a set
    refused(state, 0, "meld K1 B1 Y1 R1", "first-meld-needs-run")


def test_the_run_requirement_is_an_option():
    rules = REMI.with_options(first_meld_needs_run=False)
    state, events = play(before_first_meld("K1 B1 Y1 R1 K7", rules), (0, "meld K1 B1 Y1 R1"))
    assert events[0].count == 100
    assert state.melded_on[0] is not None


def test_the_first_meld_comes_from_the_rack():
    state = before_first_meld("R9 R10 R11 K2 B2 Y2", phase=DRAW, discards="K4 R12")
    refused(state, 0, "take", "not-melded-yet")
    refused(state, 0, "pick 1 R12 R10 R11", "not-melded-yet")
    refused(
        before_first_meld("R9 R10 R11 K2 B2 Y2"), 0, "meld R9 R10 R11 R12 | K2 B2 Y2", "not-on-rack"
    )


def test_in_the_first_meld_turn_no_adding_to_other_players_melds_nor_swapping():
    state = before_first_meld(
        "R10 R11 R12 R13 K2 B2 Y2 R8 R9 R2 R7 Y7 K9 K8 Y6",
        melds=[("R5 R6 R7", 1), ("K7 B7 J", 1)],
    )
    state, _ = play(state, (0, "meld R10 R11 R12 R13 | K2 B2 Y2"))
    refused(state, 0, "add 0 R8", "first-meld-turn")
    refused(state, 0, "swap 1 R7 Y7 into J K9 K8", "first-meld-turn")
    # ...but more new melds, of any value, and additions to one's own melds are fine.
    state, _ = play(state, (0, "add 2 R9"), (0, "add 3 R2"))
    assert [str(t) for t in state.melds[2].meld.tiles] == ["R9", "R10", "R11", "R12", "R13"]
    assert sorted(str(t) for t in state.melds[3].meld.tiles) == ["B2", "K2", "R2", "Y2"]
    assert rack(state, 0) == bag("R8 R7 Y7 K9 K8 Y6")


def test_in_the_first_meld_turn_further_small_melds_are_fine():
    state = before_first_meld("R10 R11 R12 R13 K2 B2 Y2 Y7 Y8 Y9 K4")
    state, _ = play(state, (0, "meld R10 R11 R12 R13 | K2 B2 Y2"), (0, "meld Y7 Y8 Y9"))
    assert rack(state, 0) == bag("K4")


def test_after_the_first_meld_turn_melds_of_any_value_and_additions_to_anyone():
    state = before_first_meld("R10 R11 R12 R13 K2 B2 Y2 R8 Y3 Y4 Y5 K11", wall="B13 B12")
    state, _ = play(state, (0, "meld R10 R11 R12 R13 | K2 B2 Y2"), (0, "discard K11"))
    state, _ = play(state, (1, "draw"), (1, "discard Y4"))
    state, events = play(state, (0, "draw"), (0, "add 0 R8"), (0, "meld Y3 Y4 Y5"))
    melded = [e for e in events if e.kind == ev.MELDED]
    assert melded[0].count == 0  # not a first meld: no total, and no minimum
    assert [str(t) for t in state.melds[0].meld.tiles] == ["R5", "R6", "R7", "R8"]
    assert state.melds[0].owners == (1, 1, 1, 0)


# --- rule 9: a turn before the first meld -------------------------------------------------


def test_a_turn_before_the_first_meld_is_draw_then_discard():
    state = before_first_meld("R9 R10 K4 K7", phase=DRAW, wall="B3 B4")
    refused(state, 0, "discard K4", "must-draw")
    refused(state, 0, "meld R9 R10 K4", "must-draw")
    refused(state, 0, "add 0 R8", "must-draw")
    state, events = play(state, (0, "draw"))
    assert texts(events, NAMES, 1) == ["Ana drew a tile."]
    assert texts(events, NAMES, 0) == ["You drew B3."]
    refused(state, 0, "draw", "already-drew")
    refused(state, 0, "add 0 R8", "not-melded-yet")
    state, _ = play(state, (0, "discard K4"))
    assert rack(state, 0) == bag("R9 R10 K7 B3")
    assert state.turn == 1 and state.phase == DRAW


def test_a_turn_before_the_first_meld_may_meld_between_draw_and_discard():
    state = before_first_meld("R9 R10 R11 K2 B2 Y2 K7", phase=DRAW, wall="R12 B4")
    state, _ = play(state, (0, "draw"), (0, "meld R9 R10 R11 R12 | K2 B2 Y2"), (0, "discard K7"))
    assert state.racks[0] == []
    assert state.result is not None and state.result.winner == 0


# --- option first_meld_takes_discard ------------------------------------------------------

OPEN_DISCARD = PRESETS["remi-open-discard"]


def open_discard_position(tiles: str):
    return position(
        [tiles, "Y4 Y8 B11"],
        rules=OPEN_DISCARD,
        discards="K4 R12",
        discarded_by=[1, 1],
        wall="B3",
    )


def test_the_previous_discard_may_be_taken_for_the_first_meld():
    state = open_discard_position("R9 R10 R11 K2 B2 Y2 K7")
    state, events = play(state, (0, "take"))
    assert texts(events, NAMES, 1) == ["Ana took R12 from the discard row."]
    refused(state, 0, "discard K7", "use-discard")
    state, events = play(state, (0, "meld R9 R10 R11 R12 | K2 B2 Y2"))
    assert events[0].count == 50
    state, _ = play(state, (0, "discard K7"))
    assert [str(t) for t in state.discards] == ["K4", "K7"]


def test_the_taken_discard_must_go_into_the_first_meld():
    state = open_discard_position("R9 R10 R11 K10 B10 Y10 K7")
    state, _ = play(state, (0, "take"))
    refused(state, 0, "meld R9 R10 R11 | K10 B10 Y10", "use-discard")


def test_a_taken_discard_that_cannot_be_used_is_put_back():
    original = open_discard_position("R9 R10 K2 B2 Y2 K7")
    taken, _ = play(original, (0, "take"))
    refused(taken, 0, "meld R9 R10 R12 | K2 B2 Y2", "invalid-meld")
    state, events = play(taken, (0, "undo"))
    assert texts(events, NAMES, 1) == ["Ana put R12 back."]
    assert state.to_dict() == original.to_dict()
    state, _ = play(state, (0, "draw"))
    assert rack(state, 0) == bag("R9 R10 K2 B2 Y2 K7 B3")


def test_without_the_option_the_discard_is_not_for_the_first_meld():
    state = position(["R9 R10 R11 K2 B2 Y2 K7", "Y4 Y8 B11"], discards="K4 R12")
    refused(state, 0, "take", "not-melded-yet")
    refused(state, 0, "undo", "must-draw")
