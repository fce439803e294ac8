"""004, going out, the stock running out, stalemates and "Scoring"; 001's variations of
them.  Scores are worked out in the comments (face cards 10, aces 1, others their rank)."""

from __future__ import annotations

from games.engine.basic_rummy import BASIC_RUMMY, GAME, PRESETS
from games.engine.basic_rummy.scenario import position
from games.engine.cards import parse_cards

from .helpers import codes, hand, play, refused

OTHERS = ["KS QS 2C", "AD 9H"]  # 10 + 10 + 2 = 22 and 1 + 9 = 10: 32 for the winner


def test_going_out_without_a_final_discard_wins_everything_in_the_other_hands():
    state = position(["5H 6H 7H 9S 9D", *OTHERS], stock="3D 9C", played_before=[0])
    after, events = play(state, 0, "draw", "meld 9S 9D 9C", "meld 5H 6H 7H")
    assert after.over and codes(events)[-2:] == ["went-out", "game-over"]
    # 22 + 10 = 32 for the winner, nothing for the others.
    assert after.result.scores == (32, 0, 0)


def test_going_out_by_discarding_the_last_card():
    # 004: "If you only have one card left to discard you put it face down ... and win".
    state = position(["8H", *OTHERS], table=["5H 6H 7H"], stock="KD 9S", played_before=[0])
    after, events = play(state, 0, "draw", "layoff 1 8H", "discard 9S")
    assert after.over and after.result.winner == 0
    assert codes(events)[-3:] == ["discarded", "went-out", "game-over"]
    # Not rummy (a lay-off in an earlier turn): 32 points, losers 0.
    assert after.result.scores == (32, 0, 0) and not after.result.rummy
    assert GAME.outcome(after).breakdown[0] == {"others_hands": 32, "total": 32}


def test_the_variation_with_a_final_discard_required():
    rules = PRESETS["final-discard"]
    state = position(["5H 6H 7H", *OTHERS], rules=rules, stock="8H", played_before=[0])
    drawn, _ = play(state, 0, "draw")
    refused(drawn, 0, "meld 5H 6H 7H 8H", "keep-a-card-to-discard")
    after, _ = play(drawn, 0, "meld 5H 6H 7H", "discard 8H")
    assert after.over and after.result.scores == (32, 0, 0)


def test_going_rummy_doubles_and_only_without_any_earlier_meld_or_lay_off():
    state = position(["5H 6H 7H 9S 9D", *OTHERS], stock="9C")
    after, _ = play(state, 0, "draw", "meld 5H 6H 7H", "meld 9S 9D 9C")
    assert after.result.rummy and after.result.scores == (64, 0, 0)  # 32 doubled
    laid_before = position(["5H 6H 7H 9S 9D", *OTHERS], stock="9C", played_before=[0])
    after, _ = play(laid_before, 0, "draw", "meld 5H 6H 7H", "meld 9S 9D 9C")
    assert not after.result.rummy and after.result.scores == (32, 0, 0)
    no_double = BASIC_RUMMY.with_options(rummy_doubles=False)
    state = position(["5H 6H 7H 9S 9D", *OTHERS], rules=no_double, stock="9C")
    after, _ = play(state, 0, "draw", "meld 5H 6H 7H", "meld 9S 9D 9C")
    assert after.result.scores == (32, 0, 0)


def test_scoring_options_ace_points_and_a_bonus_for_going_out():
    rules = BASIC_RUMMY.with_options(ace_points=15, out_bonus=10)
    state = position(["5H 6H 7H 9S", *OTHERS], rules=rules, stock="8H", played_before=[0])
    after, _ = play(state, 0, "draw", "meld 5H 6H 7H 8H", "discard 9S")
    # 22 + (15 + 9) = 46, then 10 for going out = 56.
    assert after.result.scores == (56, 0, 0)
    assert GAME.outcome(after).breakdown[0] == {"others_hands": 46, "out_bonus": 10, "total": 56}


def test_jokers_are_not_scored():
    rules = PRESETS["jokers-wild"]
    state = position(["5H 6H 7H 9S", "KS JK", "JK 2C"], rules=rules, stock="8H", played_before=[0])
    after, _ = play(state, 0, "draw", "meld 5H 6H 7H 8H", "discard 9S")
    assert after.result.scores == (12, 0, 0)  # 10 + 2


def test_an_empty_stock_is_the_discard_pile_shuffled_and_a_card_turned_up():
    state = position(["5H 6H 9S", "7H 8C"], stock="2C", discard="KD QD JD 10D")
    after, events = play(state, 0, "draw", "discard 9S")
    assert codes(events)[-1] == "restocked" and events[-1].params["how"] == "shuffle"
    assert after.restocks == 1 and len(after.discard) == 1 and len(after.stock) == 4
    assert sorted(after.stock + after.discard) == sorted(parse_cards("KD QD JD 10D 9S"))


def test_the_stock_running_out_a_second_time_is_a_stalemate_nobody_scores():
    state = position(["5H 6H 9S", "7H 8C"], stock="2C", discard="KD", restocks=1)
    after, _events = play(state, 0, "draw", "discard 9S")
    assert after.over and after.result.reason == "stock-twice"
    assert after.result.scores == (0, 0) and GAME.outcome(after).winners == ()


def test_the_variation_turning_the_pile_over_unshuffled_when_a_player_draws():
    rules = PRESETS["rummy-001"].with_options(out_from_second_turn=False)
    state = position(["5H 6H 9S", "7H 8C"], rules=rules, stock="2C", discard="KD QD JD")
    after, _ = play(state, 0, "draw", "discard 9S")
    # The stock waits empty: the next player may take the discard instead ...
    assert after.stock == [] and not after.over
    took, _ = play(after, 1, "take")
    assert hand(took, 1) == "9S 7H 8C"
    # ... or draw: the pile turned over, its first discard (KD) on top, which is turned up.
    drew, events = play(after, 1, "draw")
    assert codes(events)[:2] == ["restocked", "drew"]
    assert drew.discard == parse_cards("KD")
    assert events[1].secret == {"card": "QD"}
    assert drew.stock == parse_cards("9S JD")


def test_block_rummy_everyone_loses_the_points_in_hand_when_the_stock_is_gone():
    rules = PRESETS["block-rummy"]
    state = position(["5H 6H 9S", "7H KC AD"], rules=rules, stock="2C", discard="KD")
    after, _ = play(state, 0, "draw", "discard 9S")
    # Hands: 5 + 6 + 2 = 13 and 7 + 10 + 1 = 18, both lost.
    assert after.result.reason == "blocked" and after.result.scores == (-13, -18)


def test_a_stalemate_when_no_player_can_ever_finish():
    # 004's example: everyone down to one card that fits nowhere, nothing else to make one.
    state = position(
        ["9S KC", "2D"], table=["5H 6H 7H", "QC QD QH"], stock="AS", discard="4C", phase="play"
    )
    after, _events = play(state, 0, "discard KC")
    assert after.over and after.result.reason == "stuck" and after.result.scores == (0, 0)
    # A card that could still join a meld keeps the hand going.
    state = position(
        ["9S QS", "2D"], table=["5H 6H 7H", "QC QD QH"], stock="AS", discard="4C", phase="play"
    )
    after, _ = play(state, 0, "discard 9S")
    assert not after.over


def test_out_from_the_second_turn_only_in_that_variation():
    rules = BASIC_RUMMY.with_options(out_from_second_turn=True)
    state = position(["5H 6H 7H 9S", *OTHERS], rules=rules, stock="8H", turns_taken=0)
    drawn, _ = play(state, 0, "draw", "meld 5H 6H 7H")
    refused(drawn, 0, "meld 8H 9S", "meld-too-short")
    refused(drawn, 0, "layoff 1 8H", "out-too-early")
    state.turns_taken = [1, 1, 1]
    after, _ = play(state, 0, "draw", "meld 5H 6H 7H 8H", "discard 9S")
    assert after.over


def test_match_targets_follow_the_number_of_players_unless_set():
    assert [GAME.series_limits(BASIC_RUMMY, n) for n in (2, 3, 4)] == [
        (None, 100),
        (None, 150),
        (None, 200),
    ]
    assert GAME.series_limits(BASIC_RUMMY.with_options(target_score=500), 2) == (None, 500)
    assert GAME.series_limits(BASIC_RUMMY.with_options(series_games=3), 4) == (3, None)
