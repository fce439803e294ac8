"""Issue 13, fault 9: the engine tells whether taking the exposed tile lets the seat go out
(the page asks for a confirmation otherwise), from the seat's own view."""

from __future__ import annotations

from games.engine.remi.hints import exposed_goes_out
from games.engine.remi.scenario import position
from games.engine.remi.view import player_view


def view_of(rack: str, *, exposed: str | None = "R3", melded=(0,), melds=()):
    state = position(
        racks=[rack, "K1 K2 K3 B4"], exposed=exposed, melded=melded, melds=melds, turn=0
    )
    return player_view(state, 0)


def test_a_melded_player_who_completes_a_run_with_it_goes_out():
    # R1 R2 + R3 and K5 K6 K7 are melded, B9 is the last discard.
    assert exposed_goes_out(view_of("R1 R2 K5 K6 K7 B9"))


def test_a_rack_that_would_keep_two_tiles_does_not_go_out():
    assert not exposed_goes_out(view_of("R1 R2 K5 K6 B9 Y11"))


def test_additions_to_the_table_count_for_a_melded_player():
    # R3 completes R1 R2 R3; B9 goes on the blue run; Y12 is discarded.
    melds = [("B6 B7 B8", 1)]
    assert exposed_goes_out(view_of("R1 R2 B9 Y12", melds=melds))


def test_a_first_meld_must_reach_its_minimum_to_go_out():
    # Not melded yet: R1 R2 R3 with K5 K6 K7 is worth 24, under the 50 a first meld needs.
    assert not exposed_goes_out(view_of("R1 R2 K5 K6 K7 B9", melded=()))
    # R3 R4 R5, K11 K12 K13 and Y12 B12 R12 together are over the 50.
    assert exposed_goes_out(view_of("R4 R5 K11 K12 K13 Y12 B12 R12 B9", melded=(), exposed="R3"))


def test_no_exposed_tile_or_another_seat_to_play_is_no():
    assert not exposed_goes_out(view_of("R1 R2 K5 K6 K7 B9", exposed=None))
    state = position(racks=["R1 R2 K5 K6 K7 B9", "K1 K2 K3 B4"], exposed="R3", turn=1)
    assert not exposed_goes_out(player_view(state, 0))
    assert not exposed_goes_out(player_view(state, None))
