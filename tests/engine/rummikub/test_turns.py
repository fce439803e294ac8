"""A turn: lay tiles from the rack into new melds or onto the table, rearranging it freely;
or draw.  Impossible arrangements are refused; faulty ones cost the penalty draw."""

from __future__ import annotations

import pytest

from games.engine.rummikub import (
    InvalidAction,
    NotYourTurn,
    apply,
    judge,
    parse_action,
)
from games.engine.rummikub.scenario import position

from .helpers import bag, codes, penalised, rack, refused, table


def melded_position(**kw):
    base = dict(
        racks=["R8 K2 Y5 B5 J", "K1 K2 K3 Y9"],
        table=["R5 R6 R7", "K9 Y9 B9", "B1 B2 B3 B4 B5 B6"],
        stock="Y1 Y2 Y3 Y4",
        melded=[0, 1],
    )
    base.update(kw)
    return position(**base)


def test_adding_to_a_meld_on_the_table():
    state = melded_position()
    new, events = apply(state, 0, "play R5 R6 R7 R8 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6")
    assert table(new) == ["R5 R6 R7 R8", "Y9 B9 K9", "B1 B2 B3 B4 B5 B6"]
    assert rack(new, 0) == bag("K2 Y5 B5 J")
    assert codes(events) == ["played"]
    assert events[0].params["tiles"] == ["R8"]
    assert new.turn == 1 and new.turn_number == state.turn_number + 1
    assert new.stock == state.stock  # a player who played draws nothing


def test_rearranging_the_whole_table_with_rack_tiles():
    # The table's B5 leaves the run for a set with Y5 and the joker; the rack's B5 joins
    # B6 B7; the run keeps B1-B4.
    state = melded_position(table=["B1 B2 B3 B4 B5 B6 B7"])
    new, _ = apply(state, 0, "play B1 B2 B3 B4 | Y5 B5 J | B5 B6 B7")
    assert table(new) == ["B1 B2 B3 B4", "Y5 B5 J=R5", "B5 B6 B7"]
    assert rack(new, 0) == bag("R8 K2")


def test_splitting_a_run_to_put_a_tile_in_the_middle():
    state = position(racks=["B4 K1", "K2"], table=["B1 B2 B3 B4 B5 B6"], stock="Y1", melded=[0])
    new, _ = apply(state, 0, "play B1 B2 B3 B4 | B4 B5 B6")
    assert table(new) == ["B1 B2 B3 B4", "B4 B5 B6"]
    assert rack(new, 0) == bag("K1")


def test_draw_takes_the_last_stock_tile_and_ends_the_turn():
    state = melded_position()
    new, events = apply(state, 0, "draw")
    assert rack(new, 0) == rack(state, 0) + bag("Y4")
    assert new.stock == state.stock[:-1]
    assert new.turn == 1
    assert events[0].code == "drew"
    assert events[0].to_dict(0)["secret"] == {"tiles": ["Y4"]}
    assert "secret" not in events[0].to_dict(1)
    assert "secret" not in events[0].to_dict(None)


@pytest.mark.parametrize(
    ("notation", "code"),
    [
        # R9 is not on the rack.
        ("play R5 R6 R7 R8 R9 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6", "not-on-rack"),
        # The blue run's B6 went back to the rack: tiles on the table never do.
        ("play R5 R6 R7 R8 | K9 Y9 B9 | B1 B2 B3 B4 B5", "table-tile-missing"),
        # Rearranging alone is not a turn: play a tile or draw.
        ("play R5 R6 R7 | K9 Y9 B9 | B1 B2 B3 | B4 B5 B6", "nothing-placed"),
    ],
)
def test_impossible_arrangements_are_refused_and_change_nothing(notation, code):
    refused(melded_position(), 0, notation, code)


def test_refusals_for_the_wrong_seat_and_a_finished_game():
    state = melded_position()
    with pytest.raises(NotYourTurn):
        apply(state, 1, "draw")
    done, _ = apply(position(racks=["R1 R2 R3", "K5"], melded=[0]), 0, "play R1 R2 R3")
    assert done.over
    refused(done, 1, "draw", "game-over")


@pytest.mark.parametrize(
    "text", ["", "hop", "draw now", "play", "play R1 R2 | ", "play R1 X9 R3", "play R1=R2 J"]
)
def test_malformed_notation_is_invalid(text):
    with pytest.raises(InvalidAction):
        parse_action(text)


@pytest.mark.parametrize(
    "text",
    ["draw", "timeout", "play R1 R2 R3", "play R1 R2 R3 | K7 Y7 B7 J", "play R5 J=R6 R7 | J Y1 K1"],
)
def test_notation_round_trips(text):
    assert str(parse_action(text)) == text
    assert parse_action(str(parse_action(text))) == parse_action(text)


def test_an_invalid_meld_left_on_the_table_costs_three_tiles():
    state = melded_position()
    new, faults = penalised(state, 0, "play R5 R6 R7 R8 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6 | K2")
    assert faults == [{"code": "invalid-meld", "meld": 3, "reason": "too-short", "size": 1}]
    assert rack(new, 0) == bag("R8 K2 Y5 B5 J Y2 Y3 Y4")


def test_breaking_a_table_meld_is_a_fault_too():
    state = melded_position()
    _, faults = penalised(state, 0, "play R5 R6 | R7 R8 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6")
    assert [f["code"] for f in faults] == ["invalid-meld", "invalid-meld"]


def test_penalty_with_a_short_stock_draws_what_is_left():
    state = melded_position(stock="Y1")
    new, _ = penalised(state, 0, "play R5 R6 R7 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6 | R8 K2")
    assert new.stock == []
    assert rack(new, 0) == rack(state, 0) + bag("Y1")


def test_timer_running_out_is_the_penalty():
    state = melded_position()
    new, events = apply(state, 0, "timeout")
    assert codes(events) == ["time-up", "penalty"]
    assert events[1].params == {"faults": [{"code": "time-up"}], "count": 3}
    assert table(new) == table(state)
    assert rack(new, 0) == rack(state, 0) + bag("Y2 Y3 Y4")


def test_penalty_size_is_an_option():
    state = melded_position(rules=melded_position().rules.with_options(penalty_tiles=1))
    new, _ = penalised(state, 0, "play R5 R6 R7 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6 | R8 K2")
    assert rack(new, 0) == rack(state, 0) + bag("Y4")


def test_judge_tells_the_faults_before_a_play_is_made():
    state = melded_position()
    good = parse_action("play R5 R6 R7 R8 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6")
    bad = parse_action("play R5 R6 R7 | K9 Y9 B9 | B1 B2 B3 B4 B5 B6 | R8 K2")
    assert judge(state.table, state.racks[0], True, good, state.rules).ok
    assert not judge(state.table, state.racks[0], True, bad, state.rules).ok


def test_a_joker_without_a_reading_keeps_the_one_it_had():
    state = position(racks=["R7 R3", "K2"], table=["R4 R5 J=R6"], stock="Y1", melded=[0])
    # Written plainly, R4 R5 J R7 can only read J=R6: fine.
    new, _ = apply(state, 0, "play R4 R5 J R7")
    assert table(new) == ["R4 R5 J=R6 R7"]
    # R3 R4 R5 J could read J=R6 or J=R2; the joker keeps R6, as it was.
    new, _ = apply(state, 0, "play R3 R4 R5 J")
    assert table(new) == ["R3 R4 R5 J=R6"]
    # A reading given explicitly wins.
    new, _ = apply(state, 0, "play R3 R4 R5 J=R2")
    assert table(new) == ["J=R2 R3 R4 R5"]
