from __future__ import annotations

from games.engine import apply
from games.engine.scenario import position


def test_two_idle_rebuilds_in_a_row_end_the_game_with_no_winner():
    # Every meld is closed and each player holds one tile that fits nowhere: without the
    # stalemate rule the wall would be rebuilt for ever.
    state = position(
        ["K5", "Y9"],
        wall="",
        discards="B2 R7 R8",
        melds=[("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", 0)],
        melded=[0, 1],
    )
    state, events = apply(state, 0, "draw")
    assert state.rebuilds == 1 and state.idle_rebuilds == 1
    assert [e.kind for e in events][:1] == ["rebuilt"]
    state, _ = apply(state, 0, f"discard {state.racks[0][-1]}")
    state, _ = apply(state, 1, "draw")
    state, _ = apply(state, 1, f"discard {state.racks[1][-1]}")
    state, _ = apply(state, 0, "draw")  # the wall of two is used up: second rebuild
    assert state.rebuilds == 2 and state.idle_rebuilds == 2
    state, _ = apply(state, 0, f"discard {state.racks[0][-1]}")
    state, _ = apply(state, 1, "draw")
    state, _ = apply(state, 1, f"discard {state.racks[1][-1]}")
    state, events = apply(state, 0, "draw")
    assert state.phase == "over"
    assert state.result.winner is None
    assert [e.kind for e in events] == ["no-winner"]


def test_laying_a_tile_resets_the_idle_rebuild_count():
    state = position(
        ["K5 R6 R9", "Y9"],
        wall="",
        discards="B2 Y7 Y8",
        melds=[("R3 R4 R5", 1)],
        melded=[0, 1],
    )
    state, _ = apply(state, 0, "draw")
    assert state.idle_rebuilds == 1
    state, _ = apply(state, 0, "add 0 R6")
    assert state.idle_rebuilds == 0
    assert state.rebuilds == 1
