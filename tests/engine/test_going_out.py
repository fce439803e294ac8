"""Rule 13: going out, and the exposed tile on the final turn."""

from __future__ import annotations

from games.engine.remi import events as ev
from games.engine.remi import legal_verbs, player_view
from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW, OVER

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan"]
BOGDAN = "Y4 Y8 B11 K2"  # never melds: -200 in every game below


def test_melding_all_but_one_and_discarding_the_last_goes_out():
    state = position(["R5 R6 R7 K9", BOGDAN], melded=[0], wall="R8 B2", discards="K4")
    state, events = play(state, (0, "draw"), (0, "meld R5 R6 R7 R8"), (0, "discard K9"))
    assert state.phase == OVER
    assert kinds(events)[-2:] == [ev.DISCARDED, ev.WENT_OUT]
    assert texts(events, NAMES, 1)[-1] == "Ana went out!"
    assert state.result.winner == 0 and state.result.reason == "out"
    # 100 + R5 R6 R7 R8 (4 x 5); Bogdan never melded.
    assert state.result.scores == (120, -200)
    assert not state.result.all_at_once
    for action in ("draw", "discard K2", "ready", "declare"):
        refused(state, 1, action, "game-over")
    # At the end every rack is turned over.
    assert player_view(state, 0)["final_racks"] == [[], BOGDAN.split()]


def test_going_out_by_adding_the_last_tiles_to_a_meld():
    state = position(
        ["R8 K9", BOGDAN], melded=[0], melds=[("R5 R6 R7", 0)], discards="K4", phase="play"
    )
    state, _ = play(state, (0, "add 0 R8"), (0, "discard K9"))
    assert state.result.winner == 0
    assert not state.result.all_at_once  # Ana melded R5 R6 R7 in an earlier turn
    assert state.result.scores == (100 + 20, -200)


def test_going_out_after_taking_the_previous_discard():
    state = position(["R5 R6 K9", BOGDAN], melded=[0], discards="K4 R7")
    state, _ = play(state, (0, "take"), (0, "meld R5 R6 R7"), (0, "discard K9"))
    assert state.result.winner == 0


def test_going_out_after_a_pick():
    state = position(["K9 K11 Y2", BOGDAN], melded=[0], discards="K4 B8 K10")
    state, _ = play(state, (0, "pick 2 K10 K9 K11"), (0, "discard Y2"))
    assert state.result.winner == 0
    assert state.result.scores == (100 + 25, -200)


def test_the_exposed_tile_may_be_taken_to_go_out():
    state = position(["R5 R6 K9", BOGDAN], melded=[0], exposed="R7", wall="B2", discards="K4")
    state, events = play(state, (0, "exposed"))
    assert texts(events, NAMES, 1) == ["Ana took the exposed tile R7 to go out."]
    assert state.exposed is None
    assert state.exposed_tile is not None  # still known, for the twin
    state, _ = play(state, (0, "meld R5 R6 R7"))
    assert "discard" in legal_verbs(state, 0)  # the last tile: the discard goes out
    state, _ = play(state, (0, "discard K9"))
    assert state.result.winner == 0
    assert state.result.scores == (115, -200)


def test_the_exposed_tile_only_on_the_final_turn():
    original = position(["R5 R6 K9 K2", BOGDAN], melded=[0], exposed="R7", wall="B2", discards="K4")
    state, _ = play(original, (0, "exposed"), (0, "meld R5 R6 R7"))
    assert "discard" not in legal_verbs(state, 0)  # two tiles left: not going out
    refused(state, 0, "discard K9", "must-go-out")
    state, events = play(state, (0, "undo"))
    assert texts(events, NAMES, 1) == ["Ana put R7 back."]
    assert state.to_dict() == original.to_dict()  # the meld is taken back too
    assert state.phase == DRAW and str(state.exposed) == "R7"
    state, _ = play(state, (0, "draw"))
    assert rack(state, 0) == bag("R5 R6 K9 K2 B2")


def test_the_exposed_tile_can_be_taken_once():
    state = position(["R5 R6 K9", BOGDAN], melded=[0], exposed=None, wall="B2", discards="K4")
    refused(state, 0, "exposed", "exposed-gone")


def test_going_out_all_at_once_needs_a_legal_first_meld():
    state = position(["R2 R3 R4 K5 B5 Y5 K9", BOGDAN], wall="R5", discards="K4")
    state, _ = play(state, (0, "draw"))
    refused(state, 0, "meld R2 R3 R4 R5 | K5 B5 Y5", "first-meld-too-low")  # 20 + 15


def test_going_out_all_at_once_with_the_exposed_tile():
    state = position(["R10 R11 R12 K5 B5 Y5 K9", BOGDAN], exposed="R13", discards="K4")
    state, _ = play(
        state, (0, "exposed"), (0, "meld R10 R11 R12 R13 | K5 B5 Y5"), (0, "discard K9")
    )
    assert state.result.all_at_once
    # 100 for going out + 55 melded (40 + 15) + 100 for all at once.
    assert state.result.scores == (255, -200)


def test_melding_everything_in_several_actions_of_one_turn_is_still_all_at_once():
    state = position(["R10 R11 R12 R13 K5 B5 Y5 Y7 Y8 Y9", BOGDAN], wall="K2", discards="K4")
    state, _ = play(
        state,
        (0, "draw"),
        (0, "meld R10 R11 R12 R13 | K5 B5 Y5"),
        (0, "meld Y7 Y8 Y9"),
        (0, "discard K2"),
    )
    assert state.result.all_at_once
    # 100 + (40 + 15 + 15) melded + 100 for all at once.
    assert state.result.scores == (270, -200)
