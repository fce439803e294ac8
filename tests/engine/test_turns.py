"""Rules 5, 10 and 12: opening the discard row, starting a turn after the first meld (draw,
take, pick), the locked row with one or two tiles, and every turn ending with a discard."""

from __future__ import annotations

import pytest

from games.engine import InvalidAction, NotYourTurn
from games.engine.remi import REMI, apply, legal_verbs, new_game
from games.engine.remi import events as ev
from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW, OPEN, PLAY

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan", "Cristi"]


# --- rule 5: the opening discard ----------------------------------------------------------


def test_the_first_player_opens_by_discarding_one_tile():
    state = position(["R5 K2 K3", "Y4 Y5 Y6", "B1 B2 B3"], phase=OPEN, acted=False, wall="B9")
    refused(state, 0, "draw", "must-open")
    refused(state, 0, "meld K2 K3 R5", "must-open")
    refused(state, 1, "discard Y4", "not-your-turn")
    state, events = play(state, (0, "discard R5"))
    assert texts(events, NAMES, 2) == ["Ana opened the discard row with R5."]
    assert [str(t) for t in state.discards] == ["R5"]
    assert rack(state, 0) == bag("K2 K3")
    assert state.turn == 1 and state.phase == DRAW


def test_a_new_game_starts_with_the_fifteen_tile_player_opening():
    state = new_game(REMI.with_options(doubla=False), NAMES, "open", dealer=1)
    assert state.phase == OPEN and state.turn == 2
    tile = state.racks[2][3]
    state, _ = play(state, (2, f"discard {tile}"))
    assert state.discards == [tile]
    assert [len(r) for r in state.racks] == [14, 14, 14]
    assert state.turn == 0  # after the last seat comes the first


def test_the_opening_tile_can_never_be_taken():
    alone = position(["R6 R7 K9", "Y4 Y5 Y6"], discards="R5", melded=[0])
    refused(alone, 0, "take", "first-tile")
    refused(alone, 0, "pick 0 R5 R6 R7", "first-tile")
    assert "take" not in legal_verbs(alone, 0) and "pick" not in legal_verbs(alone, 0)
    longer = position(["R6 R7 K9", "Y4 Y5 Y6"], discards="R5 K11", melded=[0])
    refused(longer, 0, "pick 0 R5 R6 R7", "first-tile")


# --- rule 10: starting a turn after the first meld ----------------------------------------


def melded_ana(tiles: str, discards: str = "K2 Y9 B7 R3 K11 Y1", **kw):
    """Ana has melded before; Bogdan and Cristi have not.  The row was discarded in turn."""
    kw.setdefault("melded", [0])
    return position([tiles, "Y4 Y8 B11", "K6 R9 B13"], discards=discards, **kw)


def test_the_previous_discard_may_be_taken_and_kept():
    state = melded_ana("R2 K9 Y4", discards="K4 B8 Y12", wall="B2")
    state, events = play(state, (0, "take"))
    assert texts(events, NAMES, 1) == ["Ana took Y12 from the discard row."]
    assert rack(state, 0) == bag("R2 K9 Y4 Y12")
    assert [str(t) for t in state.discards] == ["K4", "B8"]
    assert state.wall == melded_ana("", wall="B2").wall  # the wall is untouched
    state, _ = play(state, (0, "discard K9"))  # no need to use Y12
    assert [str(t) for t in state.discards] == ["K4", "B8", "K9"]
    assert rack(state, 0) == bag("R2 Y4 Y12")


def test_pick_takes_every_later_tile():
    state = melded_ana("B5 B6 K8 K12")
    state, events = play(state, (0, "pick 2 B7 B5 B6"))
    assert texts(events, NAMES, 1) == [
        "Ana took B7 and 3 more tiles from the discard row.",
        "Ana melded B5 B6 B7.",
    ]
    assert kinds(events) == [ev.PICKED, ev.MELDED]
    assert [str(t) for t in state.discards] == ["K2", "Y9"]
    assert rack(state, 0) == bag("K8 K12 R3 K11 Y1")
    (laid,) = state.melds
    assert [str(t) for t in laid.meld.tiles] == ["B5", "B6", "B7"]
    assert laid.owners == (0, 0, 0)
    assert state.phase == PLAY and state.turn == 0
    state, _ = play(state, (0, "discard Y1"))
    assert state.turn == 1


def test_pick_of_the_last_tile_takes_nothing_more():
    state = melded_ana("K8 K12 R1 B1")
    state, events = play(state, (0, "pick 5 Y1 R1 B1"))
    assert texts(events, NAMES, 2)[0] == "Ana took Y1 from the discard row."
    assert [str(t) for t in state.discards] == ["K2", "Y9", "B7", "R3", "K11"]
    assert rack(state, 0) == bag("K8 K12")
    assert sorted(str(t) for t in state.melds[0].meld.tiles) == ["B1", "R1", "Y1"]


def test_pick_of_a_middle_tile_into_a_set():
    state = melded_ana("K3 B3 Y5 Y6")
    state, events = play(state, (0, "pick 3 R3 K3 B3"))
    assert events[0].count == 2
    assert rack(state, 0) == bag("Y5 Y6 K11 Y1")
    assert [str(t) for t in state.discards] == ["K2", "Y9", "B7"]


def test_pick_must_make_a_new_meld_with_two_rack_tiles():
    state = melded_ana("B5 B6 K8 K12", melds=[("B8 B9 B10", 1)])
    refused(state, 0, "pick 2 B7 B5 K8", "invalid-meld")
    refused(state, 0, "pick 2 B7 B6 B8", "not-on-rack")  # B8 is on the table, not the rack
    for malformed in ("pick 2 B8 B5 B6", "pick 9 B7 B5 B6", "pick 2 B7 B5", "pick x B7 B5 B6"):
        before = state.to_dict()
        with pytest.raises(InvalidAction):
            apply(state, 0, malformed)
        assert state.to_dict() == before


def test_the_exposed_tile_is_only_for_going_out():
    state = melded_ana("R5 R6 K9 K2", exposed="R7", wall="B3")
    state, _ = play(state, (0, "exposed"), (0, "meld R5 R6 R7"))
    refused(state, 0, "discard K9", "must-go-out")


# --- rule 12: one or two tiles, and the final discard -------------------------------------


@pytest.mark.parametrize("tiles", ["R2 K9", "R2"])
def test_with_one_or_two_tiles_the_row_is_locked(tiles):
    state = melded_ana(tiles, discards="K4 B8 K10", wall="B2")
    refused(state, 0, "take", "row-locked")
    refused(state, 0, "pick 2 K10 R2 K9", "row-locked")
    assert legal_verbs(state, 0) & {"take", "pick"} == set()
    state, _ = play(state, (0, "draw"))
    assert rack(state, 0) == bag(tiles + " B2")


def test_with_three_tiles_the_row_is_open():
    state = melded_ana("R2 K9 K11", discards="K4 B8 K10", wall="B2")
    assert {"take", "pick"} <= legal_verbs(state, 0)
    state, _ = play(state, (0, "pick 2 K10 K9 K11"))
    assert rack(state, 0) == bag("R2")


def test_a_meld_that_leaves_nothing_to_discard_is_refused():
    state = melded_ana("K5 K6", discards="K4 B8", wall="K7", melds=[("R8 R9 R10", 0)])
    state, _ = play(state, (0, "draw"))
    refused(state, 0, "meld K5 K6 K7", "keep-a-discard")
    refused(state, 0, "add 0 R11", "not-on-rack")
    state = melded_ana("R11 R12 R13", discards="K4 B8", melds=[("R8 R9 R10", 0)], phase=PLAY)
    refused(state, 0, "add 0 R11 R12 R13", "keep-a-discard")
    refused(state, 0, "meld R11 R12 R13", "keep-a-discard")
    state, _ = play(state, (0, "add 0 R11 R12"))
    assert rack(state, 0) == bag("R13")


def test_the_turn_passes_only_with_a_discard():
    state = melded_ana("R5 R6 R7 K9 K2 B4", discards="K4", wall="Y4")
    state, _ = play(state, (0, "draw"), (0, "meld R5 R6 R7"))
    assert state.turn == 0 and state.phase == PLAY
    refused(state, 0, "draw", "already-drew")
    refused(state, 0, "take", "already-drew")
    with pytest.raises(NotYourTurn):
        apply(state, 1, "draw")
    state, _ = play(state, (0, "discard K9"))
    assert state.turn == 1 and state.phase == DRAW


def test_a_player_down_to_three_tiles_is_announced_to_everyone():
    state = melded_ana("R5 R6 R7 K9 K2", discards="K4 B8", wall="Y4 Y5 Y6")
    state, events = play(state, (0, "draw"))
    assert ev.FEW_TILES not in kinds(events)  # six tiles
    state, events = play(state, (0, "meld R5 R6 R7"))
    assert kinds(events) == [ev.MELDED, ev.FEW_TILES]
    for viewer in (1, 2, None):
        assert events[-1].to_dict(viewer) == {"kind": ev.FEW_TILES, "seat": 0, "count": 3}
    assert texts(events, NAMES, 1)[-1] == "Ana has 3 tiles left!"
    state, events = play(state, (0, "discard K9"))
    assert ev.FEW_TILES not in kinds(events)  # announced once while it stays low


def test_the_announcement_threshold_is_an_option():
    rules = REMI.with_options(low_tile_warning=5)
    state = melded_ana("R5 R6 R7 K9 K2 B6", discards="K4 B8", wall="Y4", rules=rules)
    state, events = play(state, (0, "draw"))
    assert ev.FEW_TILES not in kinds(events)  # seven
    state, events = play(state, (0, "discard Y4"))
    assert ev.FEW_TILES not in kinds(events)  # six
    state = melded_ana("R5 R6 R7 K9 K2", discards="K4 B8", wall="Y4", rules=rules, phase=PLAY)
    state, events = play(state, (0, "discard K9"))
    assert events[-1].kind == ev.FEW_TILES and events[-1].count == 4


@pytest.mark.parametrize("start", ["draw", "take"])
def test_dropping_to_three_again_is_announced_again_whether_drawing_or_taking(start):
    # Engine fix: a player back at four tiles after taking the previous discard was not
    # announced when they dropped to three again (drawing already worked).
    state = melded_ana("R2 K9 Y4", discards="K4 B8 Y12", wall="B2")
    state.warned[0] = True  # announced on an earlier turn
    state, _ = play(state, (0, start))
    state, events = play(state, (0, "discard K9"))
    assert kinds(events) == [ev.DISCARDED, ev.FEW_TILES]
    assert events[-1].count == 3


# --- which kinds of action a seat may try (legal_verbs) ----------------------------------


def test_legal_verbs_follow_the_phase_of_the_turn():
    opening = position(["R5 K2 K3", "Y4 Y5 Y6", "B1 B2 B3"], phase=OPEN, acted=False)
    assert legal_verbs(opening, 0) == {"discard"}
    assert legal_verbs(opening, 1) == set()
    drawing = melded_ana("R2 K9 Y4", melds=[("K7 B7 J", 1)])
    assert legal_verbs(drawing, 0) == {"draw", "take", "pick", "exposed"}
    assert legal_verbs(drawing, 1) == set()
    never = melded_ana("R2 K9 Y4", melded=[], exposed=None)
    assert legal_verbs(never, 0) == {"draw"}
    open_discard = melded_ana(
        "R2 K9 Y4", melded=[], rules=REMI.with_options(first_meld_takes_discard=True)
    )
    assert legal_verbs(open_discard, 0) == {"draw", "take", "exposed"}
    playing = melded_ana("R2 K9 Y4", melds=[("K7 B7 J", 1)], phase=PLAY)
    assert legal_verbs(playing, 0) == {"meld", "add", "swap", "discard"}
    over, _ = play(melded_ana("K9", phase=PLAY), (0, "discard K9"))
    assert legal_verbs(over, 0) == legal_verbs(over, 1) == set()
