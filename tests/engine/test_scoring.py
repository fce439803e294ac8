"""Rule 15: scoring one game, and the scoring options.

Every expected score is worked out on paper in the comment beside it, from the source:
winner 100 + melded; others melded - rack; tile values 2-9: 5, 10-13: 10, a 1 is 5 in
1-2-3, 10 in 12-13-1, 25 in a set and 25 on a rack; a Joly +50 to whoever first melded it
and -25 on a rack; never melded -200; all at once +100; declared twin +25.
"""

from __future__ import annotations

import pytest

from games.engine.remi import PRESETS, REMI
from games.engine.remi.scenario import position
from games.engine.remi.state import PLAY

from .helpers import play

# --- one table, many options --------------------------------------------------------------


def rich_table(rules=REMI):
    """Ana goes out; Bogdan melded and holds the twin of the exposed K13; Cristi never melded.

    Ana:    meld R5 R6 J=R7 (her Joly), rack R8 K9 -> adds R8, discards K9.
    Bogdan: meld Y10 Y11 Y12, rack K13 Y1 J, declares K13.
    Cristi: rack B2 B3 B4 B5, never melded.
    """
    state = position(
        ["R8 K9", "K13 Y1 J", "B2 B3 B4 B5"],
        rules=rules,
        melds=[("R5 R6 J=R7", 0), ("Y10 Y11 Y12", 1)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
        acted=False,
    )
    state, _ = play(state, (1, "declare"), (0, "add 0 R8"), (0, "discard K9"))
    return state.result


# Ana:    100 + R5 R6 (10) + her Joly (50) + R8 (5)                    = 165
# Bogdan: 30 - (K13 10 + Y1 25 + J 25) + twin 25                      = -5
# Cristi: never melded                                                 = -200
RICH = (165, -5, -200)


def test_the_source_scoring():
    result = rich_table()
    assert result.winner == 0
    assert result.scores == RICH
    for parts in result.breakdown:
        assert sum(v for k, v in parts.items() if k != "total") == parts["total"]


@pytest.mark.parametrize(
    ("options", "scores"),
    [
        ({"winner_bonus": 60}, (125, -5, -200)),  # 60 + 10 + 50 + 5
        ({"melded_joly_value": 40}, (155, -5, -200)),  # 100 + 10 + 40 + 5
        ({"rack_joly_value": 30}, (165, -10, -200)),  # 30 - (10 + 25 + 30) + 25
        ({"rack_one_value": 5}, (165, 15, -200)),  # 30 - (10 + 5 + 25) + 25
        ({"twin_bonus": 10}, (165, -20, -200)),  # 30 - 60 + 10
        ({"unmelded_flat": 150}, (165, -5, -150)),
        ({"unmelded_penalty": "rack"}, (165, -5, -120)),  # -(100 + 4 x 5)
        ({"unmelded_penalty": "rack", "unmelded_rack_base": 80}, (165, -5, -100)),
        ({"joly_discard_doubles": True}, RICH),  # Ana went out on K9, not a Joly
        ({"first_meld_minimum": 45}, RICH),  # nothing to do with scoring
    ],
)
def test_each_scoring_option_changes_only_its_own_part(options, scores):
    assert rich_table(REMI.with_options(**options)).scores == scores


def test_the_printed_rules_preset_charges_a_never_melded_player_100_plus_the_rack():
    assert rich_table(PRESETS["remi-printed"]).scores == (165, -5, -120)


# --- the parts one by one -----------------------------------------------------------------


def test_tiles_added_to_another_players_meld_count_for_the_adder():
    state = position(
        ["R8 R10 K9", "B4"],
        melds=[("Y2 Y3 Y4", 0), ("R5 R6 R7", 1), ("K10 B10 Y10", 1)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
    )
    state, _ = play(state, (0, "add 1 R8"), (0, "add 2 R10"), (0, "discard K9"))
    # Ana: 100 + Y2 Y3 Y4 (15) + R8 (5) + R10 (10) = 130
    # Bogdan: R5 R6 R7 (15) + K10 B10 Y10 (30) - B4 (5) = 40
    assert state.result.scores == (130, 40)


def test_a_freed_joly_scores_for_whoever_first_melded_it():
    state = position(
        ["B11 K8 Y8 R2", "B4"],
        melds=[("B9 B10 J=B11", 1), ("Y2 Y3 Y4", 0)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
    )
    state, _ = play(state, (0, "swap 0 B11 into J K8 Y8"), (0, "discard R2"))
    # Ana: 100 + Y2 Y3 Y4 (15) + B11 (10) + K8 Y8 (10); the Joly she re-melded is not hers = 135
    # Bogdan: B9 B10 (15) + his Joly (50) - B4 (5)                                       = 60
    assert state.result.scores == (135, 60)


def test_a_joly_that_travels_twice_still_scores_once_for_its_first_melder():
    state = position(
        ["B11 K8 Y8 R2 R3", "R8 B8 K5 B5", "K6"],
        melds=[("B9 B10 J=B11", 2), ("Y2 Y3 Y4", 0)],
        melded=[0, 1, 2],
        discards="K4",
        wall="Y1",
        phase=PLAY,
    )
    state, _ = play(
        state,
        (0, "swap 0 B11 into J K8 Y8"),  # Cristi's Joly into Ana's set of 8s
        (0, "discard R2"),
        (1, "draw"),  # Y1
        (1, "swap 2 R8 B8 into J K5 B5"),  # ... and on into Bogdan's set of 5s
        (1, "discard Y1"),
    )
    assert state.result.winner == 1
    # Ana: B11 (10) + K8 Y8 (10) + Y2 Y3 Y4 (15) - R3 (5)        = 30
    # Bogdan: 100 + R8 B8 (10) + K5 B5 (10), nothing for the Joly = 120
    # Cristi: B9 B10 (15) + the Joly he first melded (50) - K6 (5) = 60
    assert state.result.scores == (30, 120, 60)


def test_a_joly_added_to_another_players_run_is_the_adders():
    state = position(
        ["J K9", "B4"], melds=[("R5 R6 R7", 1)], melded=[0, 1], discards="K4", phase=PLAY
    )
    state, _ = play(state, (0, "add 0 J=R8"), (0, "discard K9"))
    # Ana: 100 + the Joly (50) = 150; Bogdan: 15 - 5 = 10
    assert state.result.scores == (150, 10)


def test_ones_are_worth_five_ten_or_twenty_five_by_where_they_lie():
    state = position(
        ["K9", "R1 B1 Y9"],
        melds=[("K1 B1 Y1", 0), ("R12 R13 R1", 0), ("Y1 Y2 Y3", 1)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
    )
    state, _ = play(state, (0, "discard K9"))
    # Ana: 100 + set of 1s (75) + 12-13-1 (30) = 205
    # Bogdan: 1-2-3 (15) - (R1 25 + B1 25 + Y9 5) = -40
    assert state.result.scores == (205, -40)


def test_the_never_melded_penalty_ignores_the_rack():
    for rack in ("K2", "J J K13 K12 R1"):
        state = position(["K9", rack], melded=[0], discards="K4", phase=PLAY)
        state, _ = play(state, (0, "discard K9"))
        assert state.result.scores == (100, -200)


def test_going_out_all_at_once_earns_another_hundred():
    state = position(["R10 R11 R12 R13 K5 B5 Y5 K9", "B4"], melded=[1], discards="K4", phase=PLAY)
    state, _ = play(state, (0, "meld R10 R11 R12 R13 | K5 B5 Y5"), (0, "discard K9"))
    # Ana: 100 + 40 + 15 + 100 = 255; Bogdan: 0 melded - 5 = -5
    assert state.result.scores == (255, -5)
    bonus_50 = position(
        ["R10 R11 R12 R13 K5 B5 Y5 K9", "B4"],
        rules=REMI.with_options(all_at_once_bonus=50),
        melded=[1],
        discards="K4",
        phase=PLAY,
    )
    bonus_50, _ = play(bonus_50, (0, "meld R10 R11 R12 R13 | K5 B5 Y5"), (0, "discard K9"))
    assert bonus_50.result.scores == (205, -5)


def test_a_declared_twin_scores_for_the_winner_too():
    state = position(
        ["K11 K12 K13 K9", "B4"], melded=[0, 1], discards="K4", phase=PLAY, acted=False
    )
    state, _ = play(state, (0, "declare"), (0, "meld K11 K12 K13"), (0, "discard K9"))
    # Ana: 100 + 30 + 25 = 155; Bogdan: -5
    assert state.result.scores == (155, -5)


def test_an_undeclared_twin_scores_nothing():
    state = position(["K11 K12 K13 K9", "B4"], melded=[0, 1], discards="K4", phase=PLAY)
    state, _ = play(state, (0, "meld K11 K12 K13"), (0, "discard K9"))
    assert state.result.scores == (130, -5)


def test_no_winner_nobody_gets_the_hundred():
    state = position(
        ["K9 K2 J", "B1", "K6 K7"],
        melds=[("R5 R6 R7", 0), ("Y10 Y11 Y12", 1)],
        melded=[0, 1],
        discards="K4",
    )
    state, _ = play(state, (0, "draw"))
    assert state.result.winner is None
    # Ana: 15 - (5 + 5 + 25) = -20; Bogdan: 30 - 25 = 5; Cristi never melded: -(5 + 5)
    assert state.result.scores == (-20, 5, -10)
    assert state.result.breakdown[2] == {"melded": 0, "rack": -10, "total": -10}


def no_winner(rules):
    state = position(
        ["K9 K2 J", "B1", "K6 K7"],
        rules=rules,
        melds=[("R5 R6 R7", 0), ("Y10 Y11 Y12", 1)],
        melded=[0, 1],
        discards="K4",
    )
    state, _ = play(state, (0, "draw"))
    return state.result


def test_no_winner_a_player_who_never_melded_loses_the_rack_under_every_penalty():
    # The source: with no winner "everyone scores for the tiles they have put down less the
    # tiles they have left" -- the never-melded penalty is for losing to a winner.
    assert no_winner(PRESETS["remi-printed"]).scores == (-20, 5, -10)
    assert no_winner(REMI.with_options(unmelded_flat=150)).scores == (-20, 5, -10)


def test_no_winner_the_never_melded_penalty_under_the_option():
    penalty = REMI.with_options(no_winner_unmelded="penalty")
    assert no_winner(penalty).scores == (-20, 5, -200)
    assert no_winner(penalty).breakdown[2] == {"never_melded": -200, "total": -200}
    printed = PRESETS["remi-printed"].with_options(no_winner_unmelded="penalty")
    assert no_winner(printed).scores == (-20, 5, -110)  # Cristi: -(100 + 5 + 5)


def test_the_no_winner_option_leaves_a_game_with_a_winner_alone():
    for choice in ("rack", "penalty"):
        state = position(
            ["K11 K12 K13 K9", "B4 B5"],
            rules=REMI.with_options(no_winner_unmelded=choice),
            melded=[0],
            discards="K4",
            phase=PLAY,
        )
        state, _ = play(state, (0, "meld K11 K12 K13"), (0, "discard K9"))
        assert state.result.scores == (130, -200)


def joly_out(rules):
    state = position(
        ["R8 J", "B4"],
        rules=rules,
        melds=[("R5 R6 R7", 0)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
    )
    state, _ = play(state, (0, "add 0 R8"), (0, "discard J"))
    return state.result


def test_going_out_on_a_joly_doubles_the_winner_under_the_option():
    # Ana: 100 + R5 R6 R7 R8 (20) = 120; the discarded Joly counts for nobody.  Bogdan: -5.
    assert joly_out(REMI).scores == (120, -5)
    assert joly_out(REMI).joly_out
    assert joly_out(REMI.with_options(joly_discard_doubles=True)).scores == (240, -5)
    assert joly_out(PRESETS["remi-joly-double"]).scores == (240, -5)


def test_the_doubling_includes_the_bonuses():
    state = position(
        ["K11 K12 K13 J", "B4"],
        rules=PRESETS["remi-joly-double"],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
        acted=False,
    )
    state, _ = play(state, (0, "declare"), (0, "meld K11 K12 K13"), (0, "discard J"))
    # (100 + 30 + 25) x 2 = 310
    assert state.result.scores == (310, -5)


def test_adding_to_a_run_never_takes_over_its_joly():
    state = position(
        ["R13 K9", "B4"],
        melds=[("J=R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", 1)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
    )
    state, _ = play(state, (0, "add 0 R13"), (0, "discard K9"))
    # Ana: 100 + R13 (10) = 110
    # Bogdan: R2-R9 (8 x 5) + R10 R11 R12 (30) + his Joly (50) - B4 (5) = 115
    assert state.result.scores == (110, 115)
