"""Jokers already on the table under each restriction of document 004 ("Using Jokers")."""

from __future__ import annotations

import pytest

from games.engine.rummikub import PRESETS, RUMMIKUB, apply
from games.engine.rummikub.rules import JOKER_MATCHING, JOKER_MATCHING_FROM_RACK
from games.engine.rummikub.scenario import position

from .helpers import bag, penalised, rack, table

LENIENT = RUMMIKUB
MATCHING = RUMMIKUB.with_options(joker_replacement=JOKER_MATCHING)
FROM_RACK = RUMMIKUB.with_options(joker_replacement=JOKER_MATCHING_FROM_RACK)
LOCKS = RUMMIKUB.with_options(joker_locks_meld=True)
OWN_MELD = FROM_RACK.with_options(freed_joker_own_meld=True)


def at_table(rules, rack_text, *melds):
    return position(
        racks=[rack_text, "B1 B2"], table=list(melds), stock="Y1 Y2 Y3", melded=[0, 1], rules=rules
    )


def test_the_table_r4_frees_the_joker_unless_it_must_come_from_the_rack():
    # R4 leaves R4-R7 to take the joker's place; the joker joins K12 K13.
    play = "play R3 R4 R5 | R5 R6 R7 | K12 K13 J"
    for rules in (LENIENT, MATCHING):
        state = at_table(rules, "K12 K13 Y8", "R3 J=R4 R5", "R4 R5 R6 R7")
        new, _ = apply(state, 0, play)
        assert table(new) == ["R3 R4 R5", "R5 R6 R7", "J=K11 K12 K13"]
        assert rack(new, 0) == bag("Y8")
    state = at_table(FROM_RACK, "K12 K13 Y8", "R3 J=R4 R5", "R4 R5 R6 R7")
    _, faults = penalised(state, 0, play)
    assert faults == [{"code": "joker-not-replaced", "joker": "R4", "from_rack": True}]


def test_the_matching_tile_from_the_rack_frees_the_joker_under_every_rule():
    for rules in (LENIENT, MATCHING, FROM_RACK):
        state = at_table(rules, "R4 K12 K13 Y8", "R3 J=R4 R5", "B5 B6 B7")
        new, _ = apply(state, 0, "play R3 R4 R5 | B5 B6 B7 | K12 K13 J")
        assert table(new) == ["R3 R4 R5", "B5 B6 B7", "J=K11 K12 K13"]


def test_a_joker_taken_without_its_matching_tile_only_under_the_lenient_rule():
    play = "play R5 R6 R7 | K12 K13 J"
    state = at_table(LENIENT, "K12 K13 Y8", "J=R4 R5 R6 R7")
    new, _ = apply(state, 0, play)
    assert table(new) == ["R5 R6 R7", "J=K11 K12 K13"]
    for rules in (MATCHING, FROM_RACK):
        state = at_table(rules, "K12 K13 Y8", "J=R4 R5 R6 R7")
        _, faults = penalised(state, 0, play)
        assert faults == [
            {
                "code": "joker-not-replaced",
                "joker": "R4",
                "from_rack": rules is FROM_RACK,
            }
        ]


def test_a_joker_may_not_change_its_reading_in_place_under_the_matching_rules():
    # R5 R6 J=R7 becomes J=R3 R4 R5 R6 with R4 from the rack: the joker left R7 unreplaced.
    state = at_table(MATCHING, "R4 Y8", "R5 R6 J=R7")
    _, faults = penalised(state, 0, "play J=R3 R4 R5 R6")
    assert faults[0]["code"] == "joker-not-replaced"
    new, _ = apply(at_table(LENIENT, "R4 Y8", "R5 R6 J=R7"), 0, "play J=R3 R4 R5 R6")
    assert table(new) == ["J=R3 R4 R5 R6"]
    # Keeping its reading while the run grows is fine under every rule.
    new, _ = apply(state, 0, "play R4 R5 R6 J")
    assert table(new) == ["R4 R5 R6 J=R7"]


@pytest.mark.parametrize("colour", ["R", "B"])
def test_a_set_joker_is_freed_by_any_missing_colour(colour):
    state = at_table(FROM_RACK, f"{colour}7 K12 K13", "Y7 K7 J=R7")
    new, _ = apply(state, 0, f"play Y7 K7 {colour}7 | K12 K13 J")
    assert table(new)[1] == "J=K11 K12 K13"


def test_a_set_joker_stays_put_when_its_set_grows():
    # R7 joins Y7 K7 J: the joker now stands for B7 (any missing colour), still in its set.
    state = at_table(FROM_RACK, "R7 Y8", "Y7 K7 J=R7")
    new, _ = apply(state, 0, "play Y7 K7 R7 J")
    assert table(new) == ["R7 Y7 K7 J=B7"]


def test_a_locked_meld_may_grow_but_not_lose_a_tile():
    state = at_table(LOCKS, "R8 K1", "R2 R3 J=R4 R5 R6 R7")
    new, _ = apply(state, 0, "play R2 R3 J R5 R6 R7 R8")
    assert table(new) == ["R2 R3 J=R4 R5 R6 R7 R8"]
    _, faults = penalised(state, 0, "play R2 R3 J=R4 | R5 R6 R7 R8")
    assert faults == [{"code": "joker-meld-locked", "meld": "R2 R3 J=R4 R5 R6 R7"}]
    # Without the lock the same play is fine.
    free = at_table(LENIENT, "R8 K1", "R2 R3 J=R4 R5 R6 R7")
    new, _ = apply(free, 0, "play R2 R3 J=R4 | R5 R6 R7 R8")
    assert table(new) == ["R2 R3 J=R4", "R5 R6 R7 R8"]


def test_a_locked_meld_opens_once_its_joker_is_replaced():
    state = at_table(PRESETS["rrrummy"], "R4 K12 K13", "R2 R3 J=R4 R5 R6 R7")
    new, _ = apply(state, 0, "play R2 R3 R4 | R5 R6 R7 | K12 K13 J")
    assert table(new) == ["R2 R3 R4", "R5 R6 R7", "J=K11 K12 K13"]


def test_a_freed_joker_goes_only_into_a_new_meld_of_own_tiles():
    melds = ("R3 J=R4 R5", "Y10 Y11 Y12")
    state = at_table(OWN_MELD, "R4 K12 K13 Y9", *melds)
    new, _ = apply(state, 0, "play R3 R4 R5 | Y10 Y11 Y12 | K12 K13 J")
    assert table(new)[2] == "J=K11 K12 K13"
    # On an existing meld it is a fault under this option ...
    _, faults = penalised(state, 0, "play R3 R4 R5 | Y9 Y10 Y11 Y12 J")
    assert faults == [{"code": "freed-joker-own-meld", "joker": "R4"}]
    # ... and allowed without it.
    new, _ = apply(at_table(FROM_RACK, "R4 Y9", *melds), 0, "play R3 R4 R5 | Y9 Y10 Y11 Y12 J")
    assert table(new)[1] == "Y9 Y10 Y11 Y12 J=Y13"


def test_tiles_50_preset_applies_every_restriction():
    rules = PRESETS["tiles-50"]
    assert rules.first_meld_minimum == 50
    assert rules.joker_replacement == JOKER_MATCHING_FROM_RACK
    assert rules.joker_locks_meld and rules.freed_joker_own_meld
    assert PRESETS["rummikub"] == PRESETS["easy-rummy"] == PRESETS["pup-rummy"] == RUMMIKUB
    assert PRESETS["rrrummy"].joker_locks_meld and not PRESETS["dutch-rummy"].joker_locks_meld


def test_under_the_lenient_rule_a_locked_meld_stays_locked_until_its_joker_is_replaced():
    # The joker may leave (lenient), but R5-R9 may not be split while it was not replaced.
    state = at_table(LOCKS, "K12 K13 R11", "J=R4 R5 R6 R7 R8 R9")
    new, _ = apply(state, 0, "play R5 R6 R7 R8 R9 | K12 K13 J")
    assert table(new) == ["R5 R6 R7 R8 R9", "J=K11 K12 K13"]
    _, faults = penalised(state, 0, "play R5 R6 R7 | R8 R9 J=R10 R11")
    assert faults == [{"code": "joker-meld-locked", "meld": "J=R4 R5 R6 R7 R8 R9"}]
    # With its matching tile on the table the joker is replaced and the meld is free.
    state = at_table(LOCKS, "K12 K13 R4 R11", "J=R4 R5 R6 R7 R8 R9")
    new, _ = apply(state, 0, "play R4 R5 R6 R7 | R8 R9 J=R10 R11")
    assert table(new) == ["R4 R5 R6 R7", "R8 R9 J=R10 R11"]
