"""Document 003, "Scoring" and "Winning", with the readings of docs/rules.md: card values,
the +50 for going out, cards in front of a player added and cards in hand taken off, the two
"stupidity" penalties, the doubling rule (and its options), the hand that ends with
everyone passing, and the game to 500 after going out or lost at -500."""

from __future__ import annotations

import pytest

from games.engine.thai_rummy import GAME, PRESETS, THAI_RUMMY, card_points, parse_cards
from games.engine.thai_rummy.scenario import position

from .helpers import codes, play


def test_card_values():
    values = {"2H": 5, "9S": 5, "10D": 10, "JC": 10, "QH": 10, "KS": 10, "AD": 15}
    values |= {"QS": 50, "2C": 50}
    for code, points in values.items():
        (card,) = parse_cards(code)
        assert card_points(card) == points, code


def test_going_out_after_showing_melds_before():
    state = position(
        ["9S 9H 9D", "AS 2C 3H"],
        table=["5D 6D 7D", "JH QH KH"],
        displayed=["5D 6D 7D", "JH QH KH"],
        stock="KC",
        discard="4S",
        turn=0,
        shown=[0, 1],
    )
    state, events = play(state, 0, "draw", "meld 9S 9H 9D", "discard KC")
    assert codes(events)[-2:] == ["went-out", "game-over"]
    # Ana: 5D 6D 7D 9S 9H 9D = 30, +50 for going out = 80 (she showed melds before).
    # Bogdan: JH QH KH = 30 displayed, AS 2C 3H = 15 + 50 + 5 = 70 in hand: 30 - 70 = -40.
    result = state.result
    assert result.scores == (80, -40)
    assert result.shown == (30, 30) and result.in_hand == (0, 70)
    assert result.doubled == (False, False) and result.penalties == (0, 0)


@pytest.mark.parametrize(("preset", "ana"), [("thai-rummy", 130), ("bonus-not-doubled", 80)])
def test_going_out_without_a_meld_shown_before_doubles(preset, ana):
    state = position(["9S 9H 9D", "KS QS"], rules=PRESETS[preset], stock="8D", discard="4S", turn=0)
    state, _ = play(state, 0, "draw", "meld 9S 9H 9D", "discard 8D")
    # Ana melded in her final turn only: 9S 9H 9D = 15; (15 + 50) x 2 = 130, or with the
    # bonus not doubled 15 x 2 + 50 = 80.  Bogdan showed nothing: KS QS = 10 + 50 = 60,
    # doubled: -120.
    assert state.result.scores == (ana, -120)
    assert state.result.doubled == (True, True)


def test_the_opponent_loses_50_when_the_winner_goes_out_on_their_last_discard():
    # The 8H on the pile is Bogdan's last discard; Ana takes it alone and goes out.
    state = position(["8S 8D 4C", "KS QS"], stock="2H", discard="8H", turn=0)
    assert state.discarded_by == [1]
    state, events = play(state, 0, "take 8H with 8H 8S 8D", "discard 4C")
    assert events[-2].params == {"fed_by": 1}
    # Ana: 8H 8S 8D = 15, (15 + 50) x 2 = 130 (no meld before).  Bogdan: -(10 + 50) x 2
    # = -120, and -50 for the discard she went out on: -170.
    assert state.result.scores == (130, -170)
    assert state.result.penalties == (0, 50)


def test_no_such_penalty_when_more_than_the_top_card_was_taken():
    # Ana takes the 8H with the 3D above it: not just the opponent's last discard.
    state = position(["8S 8D 3H 4H", "KS QS"], stock="2H", discard="8H 3D", turn=0)
    state, _ = play(state, 0, "take 8H with 8H 8S 8D")
    assert state.took_top_of is None
    assert [str(c) for c in state.discard] == [] and sorted(map(str, state.hands[0])) == [
        "3D",
        "3H",
        "4H",
    ]
    # Nor on the card turned up at the deal, which nobody threw.
    fresh = position(["8S 8D 4C", "KS QS"], stock="2H", discard="8H", discarded_by=[None])
    fresh, _ = play(fresh, 0, "take 8H with 8H 8S 8D", "discard 4C")
    assert fresh.result.penalties == (0, 0)


def test_with_three_players_the_penalty_goes_to_whoever_threw_the_card():
    # Cristi (seat 2) threw the 8H; Ana (seat 0) goes out on it.
    state = position(["8S 8D 4C", "KS", "2S"], stock="2H", discard="8H", turn=0)
    assert state.discarded_by == [2]
    state, _ = play(state, 0, "take 8H with 8H 8S 8D", "discard 4C")
    # Bogdan: -10 x 2 = -20; Cristi: -5 x 2 - 50 = -60.
    assert state.result.scores == (130, -20, -60)


def test_each_discard_that_fits_a_meld_on_the_table_costs_50():
    state = position(
        ["8D 2H 3S", "9C 9S 9H"],
        table=["5D 6D 7D"],
        displayed=["", "5D 6D 7D"],
        stock="KC JC",
        discard="4S",
        turn=0,
        shown=[1],
    )
    state, events = play(state, 0, "draw", "discard 8D")
    assert codes(events) == ["drew", "discarded", "discard-fitted"]
    assert events[-1].params == {"card": "8D", "index": 1}
    assert state.penalties == [1, 0]
    state, _ = play(state, 1, "draw", "meld 9C 9S 9H", "discard KC")
    # Bogdan: 5D 6D 7D 9C 9S 9H = 30, +50 = 80.  Ana: 2H 3S JC = 20 in hand, no meld:
    # -40, and -50 for the 8D: -90.
    assert state.result.scores == (-90, 80)


def test_the_penalty_adds_up():
    state = position(
        ["8D 4D 2H 3S KH", "9C 9S 9H 10C"],
        table=["5D 6D 7D"],
        displayed=["", "5D 6D 7D"],
        stock="QC JC AC",
        discard="4S",
        turn=0,
        shown=[1],
    )
    state, _ = play(state, 0, "draw", "discard 8D")
    state, _ = play(state, 1, "draw", "discard JC")
    state, _ = play(state, 0, "draw", "discard 4D")
    assert state.penalties == [2, 0]


def test_the_last_card_thrown_face_down_is_never_penalised():
    state = position(
        ["9S 9H 9D", "KC"],
        table=["5D 6D 7D"],
        displayed=["", "5D 6D 7D"],
        stock="8D",
        discard="4S",
        turn=0,
        shown=[1],
    )
    state, _ = play(state, 0, "draw", "meld 9S 9H 9D", "discard 8D")
    # The 8D fits 5D 6D 7D, but a card had to be kept for this discard.
    assert state.result.penalties == (0, 0)
    # Ana 15 + 50, doubled: 130.  Bogdan 15 displayed - 10 = 5.
    assert state.result.scores == (130, 5)


@pytest.mark.parametrize(("preset", "bogdan"), [("thai-rummy", -20), ("layoff-does-not-show", -40)])
def test_a_lay_off_counts_as_showing_a_meld_unless_the_rules_say_not(preset, bogdan):
    state = position(
        ["9H 9D 2C", "8D KS JS 4H"],
        rules=PRESETS[preset],
        table=["5D 6D 7D"],
        stock="9C 9S",
        discard="4S",
        turn=1,
        shown=[0],
    )
    state, _ = play(state, 1, "draw", "layoff 1 8D", "discard 9S")
    state, _ = play(state, 0, "draw", "meld 9H 9D 9C", "discard 2C")
    # Ana: 5D 6D 7D 9H 9D 9C = 30, +50 = 80 (shown before).  Bogdan: 8D = 5 in front of
    # him, KS JS 4H = 25 in hand: -20; doubled to -40 when a lay-off does not show a meld.
    assert state.result.scores == (80, bogdan)


def test_when_everyone_passes_both_take_off_their_hands():
    state = position(
        ["KS 2C", "AH 3C"],
        table=["5D 6D 7D"],
        stock="",
        discard="4S",
        turn=0,
        shown=[0],
    )
    state, _ = play(state, 0, "pass")
    state, _ = play(state, 1, "pass")
    # Ana: 15 displayed - (10 + 50) = -45.  Bogdan showed nothing: -(15 + 5) x 2 = -40.
    assert state.result.scores == (-45, -40)
    assert state.result.winner is None
    outcome = GAME.outcome(state)
    assert outcome.winners == () and outcome.termination == "passed"


def test_the_game_is_won_at_500_by_going_out_and_lost_at_minus_500():
    over = GAME.series_over
    # -500 or less: the game is over at once, whoever went out.
    assert over(THAI_RUMMY, 2, [[-300, 200], [-200, 100]], [[1], [1]])
    # 520 without going out is not enough...
    assert not over(THAI_RUMMY, 2, [[400, 0], [120, 90]], [[0], [1]])
    # ...nor after a hand everyone passed...
    assert not over(THAI_RUMMY, 2, [[400, 0], [120, -90]], [[0], []])
    # ...but going out at 500 or more wins.
    assert over(THAI_RUMMY, 2, [[400, 0], [120, -90]], [[0], [0]])
    assert not over(THAI_RUMMY, 2, [], [])
    # A capped number of hands (an option the arena and tournaments may use).
    assert over(THAI_RUMMY.with_options(series_games=2), 2, [[10, 0], [0, 10]], [[0], [1]])
    # A tournament's match of so many hands, with no target: only the hands count.
    hands = THAI_RUMMY.with_options(series_games=3, target_score=None)
    assert not over(hands, 2, [[-600, 600], [0, 0]], [[1], [0]])
    assert over(hands, 2, [[-600, 600], [0, 0], [5, 0]], [[1], [0], []])
    # Neither a target nor a number of hands: one hand.
    assert over(THAI_RUMMY.with_options(target_score=None), 2, [[5, 0]], [[]])


def test_the_timer_draws_then_throws_a_card_that_fits_no_meld():
    state = position(
        ["8D KS 2H", "9C"], table=["5D 6D 7D"], stock="3C", discard="4S", turn=0, shown=[1]
    )
    assert str(GAME.timeout_action(state, 0)) == "draw"
    state, _ = play(state, 0, "draw")
    # The 8D would cost 50: the highest card that fits nowhere goes, the KS.
    assert str(GAME.timeout_action(state, 0)) == "discard KS"
    assert GAME.timeout_action(state, 1) is None
    state.stock = []
    state.phase = "draw"
    assert str(GAME.timeout_action(state, 0)) == "pass"
