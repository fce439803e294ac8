"""The ``Rules`` options: defaults follow the source, presets change one thing each, bad
values are refused.  Each option's effect on play is tested where its rule is (listed below),
so a new option fails ``test_every_option_has_a_scenario_test`` until it gets one."""

from __future__ import annotations

import importlib
from dataclasses import fields

import pytest

from games.engine import InvalidAction
from games.engine.remi import PRESETS, REMI, Rules

# option -> where its effect on play is tested
COVERED = {
    "game": "test_rules_options.py::test_the_defaults_are_the_source_rules",
    "first_meld_minimum": "test_first_meld.py::test_forty_five_is_enough_under_the_remi_45_option",
    "first_meld_needs_run": "test_first_meld.py::test_the_run_requirement_is_an_option",
    "first_meld_takes_discard": (
        "test_first_meld.py::test_the_previous_discard_may_be_taken_for_the_first_meld"
    ),
    "doubla": "test_prelude.py::test_doublas_are_refused_when_the_option_is_off",
    "many_doublas": "test_prelude.py::test_one_doubla_a_player_under_the_option",
    "twin_bonus": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "rack_one_value": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "rack_joly_value": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "melded_joly_value": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "unmelded_penalty": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "unmelded_flat": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "unmelded_rack_base": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "no_winner_unmelded": (
        "test_scoring.py::test_no_winner_the_never_melded_penalty_under_the_option"
    ),
    "winner_bonus": "test_scoring.py::test_each_scoring_option_changes_only_its_own_part",
    "all_at_once_bonus": "test_scoring.py::test_going_out_all_at_once_earns_another_hundred",
    "joly_discard_doubles": (
        "test_scoring.py::test_going_out_on_a_joly_doubles_the_winner_under_the_option"
    ),
    "first_meld_turn_swap": (
        "test_joly.py::test_no_swap_at_all_in_the_first_meld_turn_under_the_option"
    ),
    "max_rebuilds": "test_wall_rebuild.py::test_the_rebuild_limit_ends_the_game",
    "doubla_split": (
        "test_prelude.py::test_the_even_split_option_keeps_one_to_six_low_seven_to_thirteen_high"
    ),
    "max_idle_rebuilds": "test_stalemate.py::test_the_safety_cap_ends_a_game_that_could_go_on",
    "series_games": "test_series.py::test_the_series_ends_after_its_number_of_games",
    "target_score": "test_series.py::test_the_series_ends_when_someone_reaches_the_target",
    "low_tile_warning": "test_turns.py::test_the_announcement_threshold_is_an_option",
}


def test_every_option_has_a_scenario_test():
    assert {f.name for f in fields(Rules)} == set(COVERED)
    for where in COVERED.values():
        module, _, test = where.partition("::")
        tests = importlib.import_module(f"{__package__}.{module.removesuffix('.py')}")
        assert callable(getattr(tests, test, None)), where


def test_the_defaults_are_the_source_rules():
    assert PRESETS["remi"] == REMI == Rules()
    assert REMI.game == "remi"
    assert REMI.first_meld_minimum == 50
    assert REMI.first_meld_needs_run is True
    assert REMI.first_meld_takes_discard is False
    assert REMI.doubla is True
    assert REMI.twin_bonus == 25
    assert REMI.rack_one_value == 25
    assert REMI.rack_joly_value == 25
    assert REMI.melded_joly_value == 50
    assert REMI.unmelded_penalty == "flat"
    assert REMI.unmelded_flat == 200
    assert REMI.winner_bonus == 100
    assert REMI.all_at_once_bonus == 100
    assert REMI.joly_discard_doubles is False
    assert REMI.max_rebuilds is None
    # The readings of Romanian printed rules (issue 16):
    assert REMI.many_doublas is True
    assert REMI.first_meld_turn_swap is True
    assert REMI.no_winner_unmelded == "rack"
    assert REMI.max_idle_rebuilds == 10  # generous: ten idle passes through the wall


@pytest.mark.parametrize(
    ("preset", "change"),
    [
        ("remi-45", {"first_meld_minimum": 45}),
        ("remi-open-discard", {"first_meld_takes_discard": True}),
        ("remi-printed", {"unmelded_penalty": "rack"}),
        ("remi-joly-double", {"joly_discard_doubles": True}),
    ],
)
def test_each_preset_is_the_source_with_one_variation(preset, change):
    assert PRESETS[preset] == REMI.with_options(**change)
    assert PRESETS[preset] != REMI


@pytest.mark.parametrize(
    "bad",
    [
        {"first_meld_minimum": -5},
        {"unmelded_penalty": "zero"},
        {"max_rebuilds": -1},
        {"max_idle_rebuilds": 0},
        {"no_winner_unmelded": "flat"},
        {"series_games": 0},
    ],
)
def test_impossible_options_are_refused(bad):
    with pytest.raises(InvalidAction):
        Rules(**bad)


def test_options_round_trip_through_json_data():
    rules = REMI.with_options(max_rebuilds=2, target_score=500, series_games=None)
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(InvalidAction):
        Rules.from_dict({**rules.to_dict(), "jokers": 4})
