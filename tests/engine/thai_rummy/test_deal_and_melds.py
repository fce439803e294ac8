"""Document 003, "Deal" and the meld rules: 13 cards each for two (three fewer per extra
player), the stock's top card starts the discard pile, the non-dealer starts, the loser deals
the next hand; sets of 3-4, runs of 3 or more in one suit, aces always high and 2s always
low, a card melded once."""

from __future__ import annotations

import pytest

from games.engine.core.series import start_series
from games.engine.errors import InvalidAction, InvalidMeld
from games.engine.thai_rummy import GAME, THAI_RUMMY, classify, new_game, parse_cards
from games.engine.thai_rummy.scenario import position

from .helpers import hand, play, refused, table


@pytest.mark.parametrize(("players", "size"), [(2, 13), (3, 10), (4, 7)])
def test_the_deal_gives_three_fewer_cards_per_extra_player(players, size):
    state = new_game(THAI_RUMMY, players, "deal", dealer=0)
    assert [len(h) for h in state.hands] == [size] * players
    # One card turned up from the stock starts the pile; nobody threw it.
    assert len(state.discard) == 1 and state.discarded_by == [None]
    assert len(state.stock) == 52 - players * size - 1
    # The player left of the dealer (with two, the non-dealer) starts.
    assert state.turn == 1


def test_five_players_are_not_offered():
    with pytest.raises(InvalidAction):
        new_game(THAI_RUMMY, 5, "deal")


def test_the_first_dealer_is_drawn_from_the_seed_and_the_deal_replays():
    first = new_game(THAI_RUMMY, 2, "seeded")
    again = new_game(THAI_RUMMY, 2, "seeded")
    assert first.to_dict() == again.to_dict()
    # Whoever deals, the same cards come out of the same seed.
    other = new_game(THAI_RUMMY, 2, "seeded", dealer=1 - first.dealer)
    assert sorted(map(str, other.stock)) == sorted(map(str, first.stock))


def test_the_loser_of_a_hand_deals_the_next():
    # Ana (seat 0) dealt; Bogdan draws the 5S, melds his kings and throws the 5S face down.
    state = position(["9S 9H 9D 4C", "KS KH KD"], stock="5S", discard="3D", turn=1)
    assert state.dealer == 0
    state, _ = play(state, 1, "draw", "meld KS KH KD", "discard 5S")
    assert state.result is not None and state.result.winner == 1
    # Bogdan showed no meld before this turn: (30 + 50) x 2 = 160.  Ana showed none at all
    # and holds 9S 9H 9D 4C = 20: -20 x 2 = -40.
    assert state.result.scores == (-40, 160)
    series = start_series(GAME, THAI_RUMMY, ["Ana", "Bogdan"], "s")
    series.dealer = 0
    assert series.record(state).dealer == 0  # Ana lost: she deals again
    assert GAME.next_dealer(state, 0, 2) == 0


def test_sets_and_runs_with_aces_high_and_twos_low():
    rules = THAI_RUMMY
    assert classify(parse_cards("QH KH AH"), rules).kind == "run"
    assert classify(parse_cards("2S 3S 4S 5S"), rules).kind == "run"
    assert classify(parse_cards("7C 7D 7H 7S"), rules).kind == "set"
    for cards, code in [
        ("AS 2S 3S", "not-in-sequence"),  # A-2-3 is not a run
        ("KS AS 2S", "not-in-sequence"),  # no going round the corner
        ("7C 7D", "meld-too-short"),
        ("5H 6H 8H", "not-in-sequence"),
        ("5H 6H 7S", "mixed-suits"),
    ]:
        with pytest.raises(InvalidMeld) as info:
            classify(parse_cards(cards), rules)
        assert info.value.code == code


def test_a_card_is_melded_once_only():
    state = position(["7H 7S 7D 8H 9H QC", "2C 3C 4C"], stock="KD", discard="5D", turn=0)
    state, _ = play(state, 0, "draw", "meld 7H 7S 7D")
    # The 7H is on the table now: it cannot make the run 7H 8H 9H as well.
    refused(state, 0, "meld 7H 8H 9H", "not-in-hand")
    assert table(state) == ["7H 7S 7D"]
    assert hand(state, 0) == "8H 9H KD QC"
