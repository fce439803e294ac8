from __future__ import annotations

from games.engine.remi import apply, new_game
from games.engine.remi.rules import REMI
from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW, OPEN, PLAY
from games.engine.remi.timeout import timeout_action
from games.engine.tiles import parse_tile, parse_tiles


def test_timeout_in_the_prelude_says_ready_for_seats_not_yet_ready():
    state = new_game(REMI, ["Ana", "Bogdan"], "timeout-prelude")
    assert str(timeout_action(state, 0)) == "ready"
    state, _ = apply(state, 0, "ready")
    assert timeout_action(state, 0) is None
    assert str(timeout_action(state, 1)) == "ready"


def test_timeout_draws_then_discards_the_tile_just_drawn():
    state = position(["R1 R2 K9", "B4 B5 B6"], wall="Y7 Y8", discards="K2 K3")
    assert str(timeout_action(state, 0)) == "draw"
    assert timeout_action(state, 1) is None  # not Bogdan's turn
    state, _ = apply(state, 0, timeout_action(state, 0))
    assert state.phase == PLAY
    assert str(timeout_action(state, 0)) == "discard Y7"
    state, _ = apply(state, 0, timeout_action(state, 0))
    assert state.racks[0] == parse_tiles("R1 R2 K9")
    assert state.turn == 1 and state.phase == DRAW


def test_timeout_puts_back_the_exposed_tile_before_discarding():
    state = position(["R1 R2 K9 B3", "B4 B5 B6"], wall="Y7", exposed="Y9", melded=[0])
    state, _ = apply(state, 0, "exposed")
    assert str(timeout_action(state, 0)) == "undo"
    state, _ = apply(state, 0, "undo")
    assert state.exposed == parse_tile("Y9") and state.phase == DRAW


def test_timeout_opens_the_discard_row_for_the_first_player():
    state = position(["R1 R2 K9", "B4 B5 B6"], phase=OPEN, acted=False)
    assert str(timeout_action(state, 0)) == "discard K9"
