"""004, "Gameplay": the deal, the draw, melds, lay-offs and the discard, one sentence at a
time, from concrete cards."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.basic_rummy import BASIC_RUMMY, GAME, PRESETS, NotYourTurn, new_game
from games.engine.basic_rummy.scenario import position
from games.engine.cards import full_deck, parse_cards
from games.engine.core.series import start_series

from .helpers import codes, hand, play, refused, table


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_ten_cards_for_two_seven_for_three_or_four_six_for_five_or_six(players, size):
    state = new_game(BASIC_RUMMY, players, "deal")
    assert [len(h) for h in state.hands] == [size] * players
    # One card turned up starts the discard pile; the rest is the stock.
    assert len(state.discard) == 1
    assert len(state.stock) == 52 - players * size - 1
    everything = [*state.stock, *state.discard, *(c for h in state.hands for c in h)]
    assert Counter(everything) == Counter(full_deck())


def test_the_player_left_of_the_dealer_starts_and_the_deal_passes_on():
    state = new_game(BASIC_RUMMY, 3, "deal", dealer=1)
    assert state.dealer == 1 and state.turn == 2
    series = start_series(GAME, BASIC_RUMMY, ["a", "b", "c"], "match")
    first = series.next_game()
    assert first.turn == (series.dealer + 1) % 3
    # A finished hand recorded: the next dealer is the next seat.
    out, _ = play(position(["5H 6H 7H 9S", "KS", "QS"], stock="2C 8H", discard="4D"), 0, "draw")
    out, _ = play(out, 0, "meld 5H 6H 7H 8H", "discard 9S")
    recorded = series.record(out)
    assert recorded.dealer == (series.dealer + 1) % 3
    assert recorded.next_game().turn == (series.dealer + 2) % 3


def test_a_turn_starts_with_the_stock_or_the_discard_pile():
    state = position(["5H 6H 9S", "KS"], stock="2C 3C", discard="4D 7H")
    drawn, events = play(state, 0, "draw")
    assert hand(drawn, 0) == "9S 5H 6H 3C" and drawn.stock == parse_cards("2C")
    assert events[0].to_dict(1) == {"code": "drew", "seat": 0, "params": {}}  # unseen by others
    assert events[0].to_dict(0)["secret"] == {"card": "3C"}
    took, events = play(state, 0, "take")
    assert hand(took, 0) == "9S 5H 6H 7H" and took.discard == parse_cards("4D")
    assert events[0].params == {"cards": ["7H"]}
    refused(took, 0, "draw", "already-drew")
    refused(state, 0, "discard 9S", "draw-first")
    with pytest.raises(NotYourTurn):
        play(state, 1, "draw")


def test_sets_of_three_or_four_of_a_rank_and_runs_of_three_or_more_in_a_suit():
    state = position(
        ["8H 8S 8D 8C 2S 3S 4S 5S 6S 9D KC", "KS"], stock="2C", discard="4D", phase="play"
    )
    after, _ = play(state, 0, "meld 8H 8S 8D 8C", "meld 2S 3S 4S 5S 6S")
    assert table(after) == ["8H 8S 8D 8C", "2S 3S 4S 5S 6S"]
    refused(state, 0, "meld 8H 8S", "meld-too-short")
    refused(state, 0, "meld 2S 3S 5S", "not-in-sequence")
    refused(state, 0, "meld 2S 3S 9D", "mixed-suits")
    refused(state, 0, "meld 8H 9D KC", "mixed-suits")


def test_aces_are_low_and_runs_do_not_wrap():
    state = position(["AS 2S 3S QH KH AH 9C", "KS"], stock="2C", discard="4D", phase="play")
    after, _ = play(state, 0, "meld AS 2S 3S")
    assert table(after) == ["AS 2S 3S"]
    refused(state, 0, "meld QH KH AH", "not-in-sequence")


def test_many_melds_in_one_turn_and_the_option_of_one_a_turn():
    cards = ["7S 7H 7D 2C 3C 4C 9H", "KS"]
    state = position(cards, stock="2D", discard="4D", phase="play")
    after, _ = play(state, 0, "meld 7S 7H 7D", "meld 2C 3C 4C")
    assert len(after.table) == 2
    one = position(cards, rules=PRESETS["one-meld-a-turn"], stock="2D", discard="4D", phase="play")
    after, _ = play(one, 0, "meld 7S 7H 7D")
    refused(after, 0, "meld 2C 3C 4C", "one-meld-a-turn")
    # Lay-offs are not melds: still allowed after the one meld.
    after = position(
        ["7C 9H", "KS"], rules=PRESETS["one-meld-a-turn"], table=["7S 7H 7D"], phase="play"
    )
    after.melds_this_turn = 1
    laid, _ = play(after, 0, "layoff 1 7C")
    assert table(laid) == ["7S 7H 7D 7C"]


def test_laying_off_on_any_meld_whoever_made_it_even_before_a_meld_of_ones_own():
    # 004's example: H5 H6 H7 on the table, the H8 laid off.
    state = position(
        ["8H 4H 3H KC", "KS"], table=["5H 6H 7H"], stock="2C", discard="4D", phase="play"
    )
    after, events = play(state, 0, "layoff 1 8H", "layoff 1 3H 4H")
    assert table(after) == ["3H 4H 5H 6H 7H 8H"]
    assert codes(events) == ["laid-off", "laid-off"]
    refused(state, 0, "layoff 1 KC", "does-not-fit")
    refused(state, 0, "layoff 2 8H", "no-such-meld")


def test_the_variation_laying_off_only_after_ones_own_meld():
    rules = BASIC_RUMMY.with_options(lay_off_after_own_meld=True)
    cards = ["8H 2C 3C 4C KD", "KS"]
    state = position(cards, rules=rules, table=["5H 6H 7H"], stock="2D", discard="4D", phase="play")
    refused(state, 0, "layoff 1 8H", "meld-before-laying-off")
    after, _ = play(state, 0, "meld 2C 3C 4C", "layoff 1 8H")
    assert table(after) == ["5H 6H 7H 8H", "2C 3C 4C"]


def test_the_card_just_taken_from_the_pile_may_not_be_discarded_the_same_turn():
    state = position(["5H 9S", "KS"], stock="QD 2C", discard="4D 7H")
    took, _ = play(state, 0, "take")
    refused(took, 0, "discard 7H", "discard-just-taken")
    after, _events = play(took, 0, "discard 9S")
    assert after.discard == parse_cards("4D 9S") and after.turn == 1
    # A card drawn from the stock may be thrown at once.
    drawn, _ = play(state, 0, "draw", "discard 2C")
    assert drawn.top == parse_cards("2C")[0]


def test_a_meld_may_not_leave_only_the_taken_card_to_discard():
    state = position(["5H 6H", "KS"], table=["8C 9C 10C"], stock="2C", discard="4D 7H")
    took, _ = play(state, 0, "take")
    refused(took, 0, "layoff 1 5H", "does-not-fit")
    # Melding 5H 6H 7H goes out (no final discard needed): fine.
    out, _ = play(took, 0, "meld 5H 6H 7H")
    assert out.over


def test_a_turn_ends_with_the_discard_and_play_passes_left():
    state = position(["5H 6H 9S", "7H KS", "QS"], stock="2C 3C", discard="4D", turn=2)
    after, events = play(state, 2, "draw", "discard 3C")
    assert after.turn == 0 and after.turn_number == state.turn_number + 1
    assert codes(events) == ["drew", "discarded"]
