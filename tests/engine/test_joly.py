"""Rules 7 and 11 at the table: what a Joly stands for, and freeing it.

Meld 0 is always Bogdan's; Ana (seat 0) has melded in an earlier turn and is to play.
"""

from __future__ import annotations

import pytest

from games.engine import InvalidAction
from games.engine.remi import REMI, apply, legal_verbs
from games.engine.remi import events as ev
from games.engine.remi.scenario import position
from games.engine.remi.state import PLAY

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan", "Cristi"]


def table(tiles: str, meld: str, **kw):
    kw.setdefault("melded", [0, 1])
    kw.setdefault("phase", PLAY)
    return position([tiles, "Y4 Y8 B11", "K6 R9 B13"], melds=[(meld, 1)], discards="K4", **kw)


def shown(state, index):
    """Meld ``index`` as written on the table, Jolys with what they stand for."""
    return state.melds[index].meld.notation()


# --- rule 7: what a Joly stands for --------------------------------------------------------


def test_a_joly_said_to_be_at_the_end_of_a_run_keeps_that_place():
    state = table("B12 B7 B8 K2", "B9 B10 J=B11")
    grown, _ = play(state, (0, "add 0 B12"))
    assert shown(grown, 0) == "B9 B10 J=B11 B12"
    refused(state, 0, "add 0 B7", "cannot-add")  # the Joly is B11: it never becomes B8
    lower, _ = play(state, (0, "add 0 B8"))
    assert shown(lower, 0) == "B8 B9 B10 J=B11"


def test_a_joly_laid_at_a_run_end_is_fixed_when_laid():
    state = position(["R2 R3 J Y4 Y5 Y6 K9", "B1 B2"], melded=[0], phase=PLAY)
    state, _ = play(state, (0, "meld R2 R3 J=R1"))
    assert shown(state, 0) == "J=R1 R2 R3"
    refused(state, 0, "add 0 R4 R5", "not-on-rack")
    state, _ = play(state, (0, "meld Y4 Y5 Y6"))
    refused(state, 0, "add 1 K9", "cannot-add")


def test_a_meld_with_too_many_jolys_is_refused_at_the_table():
    state = position(["R5 R6 J J K8 B8 Y8 K2", "B1 B2"], melded=[0], phase=PLAY)
    refused(state, 0, "meld R5 R6 J J", "invalid-meld")
    refused(state, 0, "meld K8 B8 J J", "invalid-meld")
    refused(state, 0, "meld K8 J J", "invalid-meld")
    state, _ = play(state, (0, "meld R5 R6 J | K8 B8 J"))
    assert [m.meld.joker_count for m in state.melds] == [1, 1]


def test_a_run_takes_a_second_joly_only_at_six_tiles():
    state = table("J Y2 R9 K3", "R4 R5 J=R6 R7")
    refused(state, 0, "add 0 J", "cannot-add")  # 3 real, 2 Jolys
    grown, _ = play(table("J R8 Y2 K3", "R4 R5 J=R6 R7"), (0, "add 0 R8 J=R9"))
    assert shown(grown, 0) == "R4 R5 J=R6 R7 R8 J=R9"


# --- rule 11: freeing a Joly --------------------------------------------------------------


def test_the_exact_tile_frees_a_joly_from_a_run():
    state = table("B11 K8 Y8 R2", "B9 B10 J=B11")
    state, events = play(state, (0, "swap 0 B11 into J K8 Y8"))
    assert texts(events, NAMES, 2) == [
        "Ana freed the Joly of meld 0 with B11.",
        "Ana melded Y8 K8 J=R8.",
        "Ana has 1 tile left!",
    ]
    assert kinds(events) == [ev.SWAPPED, ev.MELDED, ev.FEW_TILES]
    assert shown(state, 0) == "B9 B10 B11"
    assert state.melds[0].owners == (1, 1, 0)  # the B11 is Ana's
    assert shown(state, 1) == "Y8 K8 J=R8"
    assert state.melds[1].by == 0
    assert rack(state, 0) == bag("R2")


def test_a_joly_in_the_middle_of_a_run_is_freed_by_its_tile():
    state = table("R5 K3 K4 Y9", "R4 J R6")
    state, _ = play(state, (0, "swap 0 R5 into J K3 K4"))
    assert shown(state, 0) == "R4 R5 R6"
    assert shown(state, 1) == "K3 K4 J=K5"


def test_only_the_tile_a_joly_stands_for_frees_it():
    state = table("B12 B8 K8 Y8 R2", "B9 B10 J=B11")
    refused(state, 0, "swap 0 B12 into J K8 Y8", "cannot-swap")
    refused(state, 0, "swap 0 B8 into J K8 Y8", "cannot-swap")


def test_a_meld_without_a_joly_has_none_to_free():
    state = position(
        ["B11 K8 Y8 R2", "Y4 Y8 B11"], melds=[("B9 B10 B11", 1)], melded=[0, 1], phase=PLAY
    )
    refused(state, 0, "swap 0 B11 into J K8 Y8", "cannot-swap")


def test_both_missing_colours_free_the_joly_of_a_set_of_two():
    state = table("R7 Y7 K3 K4 B2", "K7 B7 J")
    state, _ = play(state, (0, "swap 0 R7 Y7 into J K3 K4"))
    assert sorted(str(t) for t in state.melds[0].meld.tiles) == ["B7", "K7", "R7", "Y7"]
    assert state.melds[0].meld.joker_count == 0
    assert shown(state, 1) == "K3 K4 J=K5"
    assert rack(state, 0) == bag("B2")


def test_one_missing_colour_does_not_free_the_joly_of_a_set_of_two():
    state = table("R7 Y7 K3 K4 B2", "K7 B7 J")
    refused(state, 0, "swap 0 R7 into J K3 K4", "cannot-swap")
    refused(state, 0, "swap 0 Y7 into J K3 K4", "cannot-swap")


def test_one_missing_colour_joins_a_set_of_two_and_the_fourth_frees_the_joly_later():
    state = position(
        ["R7 K2 K3", "Y4 Y8 B11", "Y7 K11 K12 B3"],
        melds=[("K7 B7 J", 1)],
        melded=[0, 1, 2],
        discards="K4",
        wall="B5 B6",
        phase=PLAY,
    )
    state, _ = play(state, (0, "add 0 R7"))
    four = state.melds[0].meld
    assert sorted(str(t) for t in four.tiles) == ["B7", "J", "K7", "R7"]
    assert [str(t) for t in four.jokers_as] == ["Y7"]  # the Joly stays, now the yellow 7
    assert state.melds[0].owners[[str(t) for t in four.tiles].index("R7")] == 0
    refused(table("Y7 K2", "K7 B7 R7 J"), 0, "add 0 Y7", "cannot-add")  # five: swap instead
    state, _ = play(state, (0, "discard K2"), (1, "draw"), (1, "discard Y4"), (2, "draw"))
    state, _ = play(state, (2, "swap 0 Y7 into J K11 K12"))
    assert sorted(str(t) for t in state.melds[0].meld.tiles) == ["B7", "K7", "R7", "Y7"]
    assert shown(state, 1) == "K11 K12 J=K13"
    assert rack(state, 2) == bag("B3 B6")


def test_the_freed_joly_must_be_melded_at_once_with_two_rack_tiles():
    state = table("B11 K8 Y8 B8 R2 Y3", "B9 B10 J=B11")
    refused(state, 0, "swap 0 B11 into J K8", "invalid-meld")
    refused(state, 0, "swap 0 B11 into J K8 R2", "invalid-meld")
    refused(state, 0, "swap 0 B11 into J K8 Y9", "not-on-rack")
    with pytest.raises(InvalidAction):
        apply(state, 0, "swap 0 B11 into K8 Y8 B8")  # the new meld must hold the Joly
    # More than two rack tiles is fine (reading in docs/rules.md).
    state, _ = play(state, (0, "swap 0 B11 into J K8 Y8 B8"))
    assert sorted(str(t) for t in state.melds[1].meld.tiles) == ["B8", "J", "K8", "Y8"]
    assert rack(state, 0) == bag("R2 Y3")


def test_freeing_a_joly_must_leave_a_tile_to_discard():
    state = table("B11 K8 Y8", "B9 B10 J=B11")
    refused(state, 0, "swap 0 B11 into J K8 Y8", "keep-a-discard")


def test_no_swap_before_the_first_meld_nor_in_its_turn():
    never = table("B11 K8 Y8 R2", "B9 B10 J=B11", melded=[1])
    refused(never, 0, "swap 0 B11 into J K8 Y8", "not-melded-yet")
    fresh = table("B11 K8 Y8 R2 R10 R11 R12 R13 R1", "B9 B10 J=B11", melded=[1])
    fresh, _ = play(fresh, (0, "meld R10 R11 R12 R13 R1"))
    assert fresh.melded_on[0] == fresh.turn_number
    refused(fresh, 0, "swap 0 B11 into J K8 Y8", "first-meld-turn")


def first_meld_with_a_joly(rules=REMI):
    # Bogdan's B9 B10 J=B11 is on the table; Ana has not melded yet.
    state = table("R10 J R12 R13 K2 B2 Y2 R11 K8 Y8 R5 B11", "B9 B10 J=B11", melded=[1])
    state.rules = rules
    state, _ = play(state, (0, "meld R10 J=R11 R12 R13 | K2 B2 Y2"))  # 40 + 15
    assert state.melded_on[0] == state.turn_number
    return state


def test_in_the_first_meld_turn_a_joly_may_be_freed_from_a_meld_just_laid():
    state = first_meld_with_a_joly()
    assert "swap" in legal_verbs(state, 0)
    state, events = play(state, (0, "swap 1 R11 into J K8 Y8"))
    assert kinds(events)[:2] == [ev.SWAPPED, ev.MELDED]
    assert shown(state, 1) == "R10 R11 R12 R13"
    assert sorted(str(t) for t in state.melds[3].meld.tiles) == ["J", "K8", "Y8"]
    assert rack(state, 0) == bag("R5 B11")
    # Ana melded the Joly first, so its 50 stays hers wherever it is now.
    state, _ = play(state, (0, "discard R5"))
    assert state.melds[3].credits.count(0) == 1


def test_in_the_first_meld_turn_another_players_joly_stays_out_of_reach():
    state = first_meld_with_a_joly()
    refusal = refused(state, 0, "swap 0 B11 into J K8 Y8", "first-meld-turn")
    assert refusal.params == {"action": "swap-own"}


def test_no_swap_at_all_in_the_first_meld_turn_under_the_option():
    state = first_meld_with_a_joly(REMI.with_options(first_meld_turn_swap=False))
    assert "swap" not in legal_verbs(state, 0)
    refusal = refused(state, 0, "swap 1 R11 into J K8 Y8", "first-meld-turn")
    assert refusal.params == {"action": "swap"}
    # From the next turn on, it may.
    state, _ = play(state, (0, "discard R5"), (1, "draw"), (1, "discard " + "Y4"))
    state, _ = play(state, (2, "draw"))
    state, _ = play(state, (2, f"discard {state.racks[2][-1]}"), (0, "draw"))
    state, _ = play(state, (0, "swap 1 R11 into J K8 Y8"))
    assert shown(state, 1) == "R10 R11 R12 R13"


def test_a_joly_freed_and_freed_again_travels_on():
    # Bogdan's Joly goes into Ana's new set, then Bogdan frees it from there.
    state = position(
        ["B11 K8 Y8 R2 R3", "R8 B8 K5 B5 Y2", "K6 R9 B13"],
        melds=[("B9 B10 J=B11", 1)],
        melded=[0, 1],
        discards="K4",
        wall="Y1",
        phase=PLAY,
    )
    state, _ = play(state, (0, "swap 0 B11 into J K8 Y8"), (0, "discard R2"))
    assert shown(state, 1) == "Y8 K8 J=R8"
    state, _ = play(state, (1, "draw"))
    refused(state, 1, "swap 1 R8 into J K5 B5", "cannot-swap")  # a set of two needs both
    state, _ = play(state, (1, "swap 1 R8 B8 into J K5 B5"))
    assert sorted(str(t) for t in state.melds[1].meld.tiles) == ["B8", "K8", "R8", "Y8"]
    assert state.melds[2].meld.joker_count == 1
    assert sorted(str(t) for t in state.melds[2].meld.tiles) == ["B5", "J", "K5"]
    assert rack(state, 1) == bag("Y2 Y1")


@pytest.mark.parametrize(
    ("meld", "after"),
    [("R12 R13 J=R1", "R12 R13 R1"), ("J=R1 R2 R3", "R1 R2 R3"), ("R2 J=R3 R4", "R2 R3 R4")],
)
def test_a_one_frees_a_joly_standing_for_a_one_at_either_end(meld, after):
    tile = next(w.split("=")[1] for w in meld.split() if "=" in w)
    state = table(f"{tile} K8 Y8 B2", meld)
    state, _ = play(state, (0, f"swap 0 {tile} into J K8 Y8"))
    assert shown(state, 0) == after


def test_a_joly_standing_for_the_low_one_stays_low_as_the_run_grows_to_thirteen():
    # Engine bug found here: adding R13 used to move Bogdan's Joly from the low 1 to after
    # the 13 (a higher-valued reading), reassigning it and handing its 50 points to Ana.
    low = "J=R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12"
    state = table("R13 R1 K9 K2", low)
    state, _ = play(state, (0, "add 0 R13"))
    assert shown(state, 0) == "J=R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    assert state.melds[0].credits[0] == 1  # still Bogdan's Joly
    assert state.melds[0].owners[-1] == 0  # the R13 is Ana's
    # The other 1 can only follow the 13 now.
    state, _ = play(state, (0, "add 0 R1"))
    assert shown(state, 0) == "J=R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    assert state.melds[0].credits[0] == 1
    assert state.melds[0].meld.start == 1


def test_a_joly_standing_for_the_high_one_stays_high_when_the_low_one_is_added():
    state = table("R1 K9 K2", "R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J")
    assert shown(state, 0).endswith("R13 J=R1")  # the higher-valued reading: 10 for the Joly
    state, _ = play(state, (0, "add 0 R1"))
    assert shown(state, 0) == "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J=R1"
    assert state.melds[0].credits[-1] == 1
