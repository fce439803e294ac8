"""001's variations as rule options: jokers wild, aces high or low or round the corner,
melds of three or four only, and the rummy 500 pickup; the presets that name them."""

from __future__ import annotations

from games.engine.basic_rummy import BASIC_RUMMY, GAME, PRESETS, classify, parse_cards
from games.engine.basic_rummy.rules import ACES_AROUND, ACES_HIGH_OR_LOW
from games.engine.basic_rummy.scenario import position

from .helpers import hand, play, refused, table

JOKERS = PRESETS["jokers-wild"]


def test_presets_name_the_variations_and_the_default_is_004():
    assert GAME.presets["basic-rummy"] == BASIC_RUMMY
    assert PRESETS["round-the-corner"].aces == ACES_AROUND
    assert PRESETS["aces-high-or-low"].aces == ACES_HIGH_OR_LOW
    assert PRESETS["block-rummy"].stock_empty == "block"
    assert PRESETS["rummy-500-pickup"].deep_pickup
    assert JOKERS.jokers == 2
    assert new_deck_size(JOKERS) == 54


def new_deck_size(rules):
    state = GAME.new_game(rules, 2, "deck")
    return len(state.stock) + len(state.discard) + sum(map(len, state.hands))


def test_a_joker_stands_for_any_card_and_keeps_its_reading():
    assert classify(parse_cards("5H JK 7H"), JOKERS).notation() == "5H JK=6H 7H"
    assert classify(parse_cards("9S 9D JK"), JOKERS).notation() == "9S 9D JK=9H"
    # Written after the run, the joker goes on top; a reading may be given.
    state = position(["5H 6H JK 2C", "KS"], rules=JOKERS, stock="3D", discard="4D", phase="play")
    after, _ = play(state, 0, "meld JK=4H 5H 6H")
    assert table(after) == ["JK=4H 5H 6H"]
    # Never replaced: the 4H cannot take the joker's place, only the ends grow.
    later = position(["4H 7H 3H", "KS"], rules=JOKERS, table=["JK=4H 5H 6H"], phase="play")
    refused(later, 0, "layoff 1 4H", "does-not-fit")
    grown, _ = play(later, 0, "layoff 1 7H", "layoff 1 3H")
    assert table(grown) == ["3H JK=4H 5H 6H 7H"]


def test_at_least_twice_as_many_natural_cards_as_jokers_in_a_meld():
    state = position(["5H JK JK 2C", "KS"], rules=JOKERS, stock="3D", discard="4D", phase="play")
    refused(state, 0, "meld 5H JK JK", "too-many-jokers")


def test_aces_high_or_low_allow_qka_and_a23_but_not_ka2():
    rules = PRESETS["aces-high-or-low"]
    assert classify(parse_cards("QS KS AS"), rules).notation() == "QS KS AS"
    assert classify(parse_cards("AS 2S 3S"), rules).notation() == "AS 2S 3S"
    state = position(["KS AS 2S 9D", "KH"], rules=rules, stock="3D", discard="4D", phase="play")
    refused(state, 0, "meld KS AS 2S", "not-in-sequence")


def test_round_the_corner_lets_runs_wrap():
    rules = PRESETS["round-the-corner"]
    state = position(["KS AS 2S 9D", "KH"], rules=rules, table=["QC KC AC"], phase="play")
    after, _ = play(state, 0, "meld KS AS 2S")
    assert table(after)[-1] == "KS AS 2S"
    # Q-K-A-2 (001's example) by laying off the 2 of clubs on Q K A.
    wrap = position(["2C 9D", "KH"], rules=rules, table=["QC KC AC"], phase="play")
    after, _ = play(wrap, 0, "layoff 1 2C")
    assert table(after) == ["QC KC AC 2C"]


def test_melds_of_three_or_four_cards_only_in_that_variation():
    rules = BASIC_RUMMY.with_options(long_melds=False)
    state = position(["2C 3C 4C 5C 6C 9D", "KH"], rules=rules, table=["7H 8H 9H 10H"], phase="play")
    refused(state, 0, "meld 2C 3C 4C 5C 6C", "meld-too-long")
    after, _ = play(state, 0, "meld 2C 3C 4C 5C")
    refused(after, 0, "layoff 2 6C", "does-not-fit")  # 2C-5C is full at four


def test_rummy_500_pickup_takes_a_deep_card_with_all_above_it_and_uses_it_at_once():
    rules = PRESETS["rummy-500-pickup"]
    state = position(
        ["7S 7D 2C", "KH"], rules=rules, table=["8H 9H 10H"], stock="3D", discard="7C QS 4D"
    )
    after, events = play(state, 0, "take 7C with 7S 7D 7C")
    assert events[0].params == {"cards": ["7C", "QS", "4D"]}
    assert table(after) == ["8H 9H 10H", "7S 7D 7C"] and hand(after, 0) == "QS 4D 2C"
    # The taken-from-deep cards may be thrown (only a single top card taken is kept).
    thrown, _ = play(after, 0, "discard 4D")
    assert thrown.turn == 1
    laid, _ = play(
        position(["2C JC", "KH"], rules=rules, table=["8H 9H 10H"], stock="3D", discard="JH 4D"),
        0,
        "take JH on 1",
    )
    assert table(laid) == ["8H 9H 10H JH"] and hand(laid, 0) == "4D 2C JC"
    refused(state, 0, "take 7C with 7S 7D 2C", "must-use-picked-card")
    refused(
        position(["7S 7D 2C", "KH"], table=["8H 9H 10H"], stock="3D", discard="7C QS 4D"),
        0,
        "take 7C with 7S 7D 7C",
        "no-deep-pickup",
    )


def test_the_spread_pile_is_seen_whole_only_with_the_rummy_500_pickup():
    plain = position(["7S", "KH"], stock="3D 5D", discard="7C QS 4D")
    assert GAME.player_view(plain, 1)["discard"] is None
    assert GAME.player_view(plain, 1)["discard_top"] == "4D"
    spread = position(["7S", "KH"], rules=PRESETS["rummy-500-pickup"], stock="3D", discard="7C 4D")
    assert GAME.player_view(spread, 1)["discard"] == ["7C", "4D"]
