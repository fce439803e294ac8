"""Document 003, "Play": the draw (from anywhere in the discard pile with every card above
it, the deepest card taken melded at once in a new meld with a card from the hand; else the
stock; with the stock gone a pass, and when everyone passes the hand ends), melds and
lay-offs while a card stays in hand (lay-offs on anyone's meld, the cards in front of the
player who laid them off), and the discard (face up and spread; the last card face down,
ending the hand)."""

from __future__ import annotations

import pytest

from games.engine.thai_rummy import GAME, InvalidAction, parse_action
from games.engine.thai_rummy.scenario import position
from games.engine.thai_rummy.state import PASSED, PLAY

from .helpers import codes, hand, play, refused, table


def test_the_notation_round_trips():
    for text in (
        "draw",
        "pass",
        "take 7H with 7H 8H 9H",
        "meld 5S 5H 5D",
        "layoff 2 8H",
        "discard QS",
    ):
        assert str(parse_action(text)) == text
    for bad in ("take", "take 7H", "take 7H on 2", "pass now", "fly"):
        with pytest.raises(InvalidAction):
            parse_action(bad)


def test_taking_from_deep_in_the_pile_takes_every_card_above_and_melds_at_once():
    # The pile, bottom to top: 4C 5H 9C KD.  Ana takes the 5H (and 9C KD above it) for a
    # run with her 6H 7H.
    state = position(["6H 7H 2S 9D", "3C 4D 8S"], stock="JD QD", discard="4C 5H 9C KD", turn=0)
    state, events = play(state, 0, "take 5H with 5H 6H 7H")
    assert codes(events) == ["took", "melded"]
    assert events[0].params["cards"] == ["5H", "9C", "KD"]
    assert [str(c) for c in state.discard] == ["4C"] and state.discarded_by == [0]
    assert table(state) == ["5H 6H 7H"]
    assert hand(state, 0) == "2S 9D KD 9C"
    assert [str(c) for c in state.displayed[0]] == ["5H", "6H", "7H"]
    assert state.phase == PLAY and state.shown[0]


def test_the_meld_may_use_other_cards_taken_with_it():
    # 5H from the pile with the 6H above it, and the 7H from the hand.
    state = position(["7H 2S 9D", "3C 4D 8S"], stock="JD", discard="5H 6H", turn=0)
    state, _ = play(state, 0, "take 5H with 5H 6H 7H")
    assert table(state) == ["5H 6H 7H"] and hand(state, 0) == "2S 9D"


def test_what_a_pickup_must_do():
    state = position(["6H 7H 5S 5D 2S", "3C 4D 8S"], stock="JD", discard="5C 5H 6S 7S 8D", turn=0)
    # The deepest card taken must be in the meld...
    refused(state, 0, "take 5H with 6S 7S 5S", "must-use-picked-card")
    # ...with at least one card from the hand (6S 7S 8S would be taken cards alone)...
    alone = position(["2S 9D", "3C"], stock="JD", discard="6S 7S 8S", turn=0)
    refused(alone, 0, "take 6S with 6S 7S 8S", "meld-needs-hand-card")
    # ...and it must be a meld: a card fitting only a meld on the table cannot be taken.
    refused(state, 0, "take 8D with 8D 2S", "meld-too-short")
    refused(state, 0, "take 8D with 8D 7H 6H", "mixed-suits")
    # Cards not in the pile nor in the hand.
    refused(state, 0, "take QS with QS QH QD", "not-in-discard-pile")
    # The 5C lies under the 5H: it does not come with it.
    refused(state, 0, "take 5H with 5H 5S 5C", "not-in-hand")
    # A good one: 5H (with 6S 7S 8D above it) and the 5S 5D from the hand.
    state, _ = play(state, 0, "take 5H with 5H 5S 5D")
    assert table(state) == ["5H 5S 5D"] and [str(c) for c in state.discard] == ["5C"]


def test_a_pickup_may_not_leave_the_hand_empty():
    # Melding 6H 7H with the 5H would leave nothing to discard.
    state = position(["6H 7H", "3C 4D 8S"], stock="JD", discard="5H", turn=0)
    refused(state, 0, "take 5H with 5H 6H 7H", "keep-a-card-to-discard")


def test_drawing_from_the_stock_and_passing_when_it_is_gone():
    state = position(["6H 7H 2S", "3C 4D 8S"], stock="JD", discard="KC", turn=0)
    refused(state, 0, "pass", "stock-not-empty")
    state, events = play(state, 0, "draw")
    assert hand(state, 0) == "2S 6H 7H JD" and events[0].secret == {"card": "JD"}
    state, _ = play(state, 0, "discard JD")
    # The stock is gone: Bogdan may not draw, so he passes (no meld, no discard).
    refused(state, 1, "draw", "stock-empty")
    state, events = play(state, 1, "pass")
    assert codes(events) == ["passed"] and state.turn == 0 and not state.over
    # Ana passes too: everyone has passed in a row, the hand ends.
    state, events = play(state, 0, "pass")
    assert codes(events) == ["passed", "game-over"]
    assert state.result.reason == PASSED and state.result.winner is None


def test_a_pickup_between_passes_starts_the_count_again():
    state = position(["6H 7H 2S", "8S 8D 3C 4D"], stock="", discard="KC 8H", turn=0)
    state, _ = play(state, 0, "pass")
    state, _ = play(state, 1, "take 8H with 8H 8S 8D", "discard 3C")
    assert state.passes == 0
    state, _ = play(state, 0, "pass")
    assert not state.over and state.passes == 1


def test_melding_as_much_as_wanted_while_a_card_stays():
    state = position(["2H 3H 4H 9S 9D 9C KS", "3C 4D 8S"], stock="5C", discard="KC", turn=0)
    state, _ = play(state, 0, "draw", "meld 2H 3H 4H", "meld 9S 9D 9C")
    assert hand(state, 0) == "KS 5C"
    assert table(state) == ["2H 3H 4H", "9S 9D 9C"]
    assert [str(c) for c in state.displayed[0]] == ["2H", "3H", "4H", "9S", "9D", "9C"]


def test_melding_every_card_is_refused():
    state = position(["2H 3H 4H", "3C 4D 8S"], stock="5H", discard="KC", turn=0)
    state, _ = play(state, 0, "draw")
    # 2H 3H 4H 5H would leave no card to discard.
    refused(state, 0, "meld 2H 3H 4H 5H", "keep-a-card-to-discard")


def test_laying_off_on_the_opponents_meld_counts_for_the_one_who_laid_off():
    # Bogdan's run 5D 6D 7D is on the table; Ana lays off the 8D on it.
    state = position(
        ["8D KS QH", "3C 4C 9S"],
        table=["5D 6D 7D"],
        displayed=["", "5D 6D 7D"],
        stock="2H",
        discard="JC",
        turn=0,
        shown=[1],
    )
    state, events = play(state, 0, "draw", "layoff 1 8D")
    assert table(state) == ["5D 6D 7D 8D"]
    assert [str(c) for c in state.displayed[0]] == ["8D"]
    assert [str(c) for c in state.displayed[1]] == ["5D", "6D", "7D"]
    assert events[-1].params == {"cards": ["8D"], "index": 1, "meld": "5D 6D 7D 8D"}
    refused(state, 0, "layoff 1 KS", "does-not-fit")
    refused(state, 0, "layoff 2 KS", "no-such-meld")


def test_the_discard_goes_face_up_on_the_spread_pile_and_the_turn_passes():
    state = position(["8D KS QH", "3C 4C 9S"], stock="2H", discard="JC", turn=0)
    state, events = play(state, 0, "draw", "discard KS")
    assert [str(c) for c in state.discard] == ["JC", "KS"]
    assert state.discarded_by[-1] == 0 and state.turn == 1
    assert codes(events) == ["drew", "discarded"]
    # Everyone sees the whole pile.
    assert GAME.player_view(state, 1)["discard"] == ["JC", "KS"]


def test_the_last_card_is_discarded_face_down_and_ends_the_hand():
    state = position(["9S 9H 9D", "3C 4C 8S"], stock="QD", discard="JC", turn=0)
    state, events = play(state, 0, "draw", "meld 9S 9H 9D", "discard QD")
    assert codes(events)[-2:] == ["went-out", "game-over"]
    assert state.over and state.result.winner == 0
    assert str(state.face_down) == "QD" and [str(c) for c in state.discard] == ["JC"]
    refused(state, 1, "draw", "game-over")


def test_the_verbs_a_seat_may_try():
    state = position(["9S 9H 9D", "3C 4C 8S"], stock="QD", discard="JC", turn=0)
    assert GAME.legal(state, 0) == {"draw", "take"}
    assert GAME.legal(state, 1) == set()
    state.stock = []
    assert GAME.legal(state, 0) == {"pass", "take"}
    state, _ = play(position(["9S 9H 9D", "3C"], stock="QD", discard="JC", turn=0), 0, "draw")
    assert GAME.legal(state, 0) == {"discard", "meld"}
