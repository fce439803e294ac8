"""First melds: new melds from the rack alone worth at least 30 (or 50), jokers counting as
the tiles they stand for; until then the table may not be touched."""

from __future__ import annotations

from games.engine.rummikub import PRESETS, RUMMIKUB, apply
from games.engine.rummikub.scenario import position

from .helpers import bag, penalised, rack, table


def opening(rack_text: str, rules=RUMMIKUB, table_melds=("K1 K2 K3",)):
    return position(
        racks=[rack_text, "Y1 Y2"], table=list(table_melds), stock="B1 B2 B3 B4", rules=rules
    )


def test_first_melds_worth_thirty_are_accepted():
    state = opening("R9 R10 R11 Y2 B7")
    new, events = apply(state, 0, "play K1 K2 K3 | R9 R10 R11")
    assert table(new) == ["K1 K2 K3", "R9 R10 R11"]
    assert new.melded[0]
    assert events[0].params["first_melds"] == 30
    assert rack(new, 0) == bag("Y2 B7")


def test_several_new_melds_add_up_and_jokers_count_as_their_tile():
    # 3+3+3 and 5+6+J=7: 9 + 18 = 27 ... plus J as 7 counts 7, not 30.
    state = opening("R3 Y3 B3 K5 K6 J K9")
    new, faults = penalised(state, 0, "play K1 K2 K3 | R3 Y3 B3 | K5 K6 J")
    assert faults == [{"code": "first-meld-too-low", "points": 27, "needed": 30}]
    assert not new.melded[0]
    state = opening("R3 Y3 B3 K8 K9 J Y2")
    new, events = apply(state, 0, "play K1 K2 K3 | R3 Y3 B3 | K8 K9 J")
    assert events[0].params["first_melds"] == 9 + 8 + 9 + 10


def test_first_melds_below_the_minimum_cost_the_penalty():
    state = opening("R1 R2 R3 Y5 B7")
    new, faults = penalised(state, 0, "play K1 K2 K3 | R1 R2 R3")
    assert faults == [{"code": "first-meld-too-low", "points": 6, "needed": 30}]
    assert rack(new, 0) == bag("R1 R2 R3 Y5 B7 B2 B3 B4")


def test_adding_to_the_table_before_the_first_melds_is_a_fault():
    # K4 on the table's run would be fine later; before the first melds it is a fault,
    # even together with new melds worth 30.
    state = opening("K4 R9 R10 R11")
    _, faults = penalised(state, 0, "play K1 K2 K3 K4 | R9 R10 R11")
    assert faults == [{"code": "table-before-first-meld"}]


def test_table_tiles_do_not_count_towards_the_first_melds():
    state = opening("R12 R13 Y5", table_melds=("R9 R10 R11",))
    _, faults = penalised(state, 0, "play R9 R10 | R11 R12 R13")
    assert faults[0]["code"] == "invalid-meld"
    _, faults = penalised(state, 0, "play R9 R10 R11 R12 R13")
    assert faults == [{"code": "table-before-first-meld"}]


def test_after_the_first_melds_the_table_is_open():
    state = opening("K4 Y7")
    state.melded[0] = True
    new, _ = apply(state, 0, "play K1 K2 K3 K4")
    assert table(new) == ["K1 K2 K3 K4"]


def test_fifty_minimum_option():
    rules = PRESETS["tiles-50"]
    state = opening("R9 R10 R11 Y2 B7", rules=rules)
    _, faults = penalised(state, 0, "play K1 K2 K3 | R9 R10 R11")
    assert faults == [{"code": "first-meld-too-low", "points": 30, "needed": 50}]
    state = opening("R9 R10 R11 Y10 B10 K10", rules=rules)
    new, events = apply(state, 0, "play K1 K2 K3 | R9 R10 R11 | Y10 B10 K10")
    assert new.melded[0]
    assert events[0].params["first_melds"] == 60


def test_drawing_instead_of_a_low_first_meld_costs_one_tile():
    state = opening("R1 R2 R3 Y5 B7")
    new, _ = apply(state, 0, "draw")
    assert rack(new, 0) == rack(state, 0) + bag("B4")
