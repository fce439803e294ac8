"""The 52-card deck and its notation, shared by the card rummies."""

from __future__ import annotations

import random

import pytest

from games.engine.cards import (
    JOKER,
    Card,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    remove_cards,
    shuffled_deck,
    sort_key,
)
from games.engine.errors import InvalidAction


def test_the_deck_has_52_distinct_cards_and_jokers_on_request():
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert {c.suit for c in deck} == {"S", "H", "D", "C"}
    assert {c.rank for c in deck} == set(range(1, 14))
    assert full_deck(2)[-2:] == [JOKER, JOKER]


def test_notation_round_trips_for_every_card():
    text = format_cards(full_deck(2))
    assert parse_cards(text) == full_deck(2)
    assert format_cards(parse_cards("AS 10H QS 2C JK")) == "AS 10H QS 2C JK"


def test_parsing_takes_lower_case_t_for_ten_and_suit_symbols():
    assert parse_cards("as th q♠ 10♥ k♣, 2♦") == parse_cards("AS 10H QS 10H KC 2D")
    assert parse_card("jk") is JOKER
    assert parse_card("JS") == Card("S", 11)


@pytest.mark.parametrize("text", ["", "1", "11H", "ZS", "AZ", "JKK", "10", "H10"])
def test_nonsense_is_refused_with_a_code(text):
    with pytest.raises(InvalidAction) as info:
        parse_card(text)
    assert info.value.code == "not-a-card"


def test_cards_are_values_and_sort_by_suit_then_rank_jokers_last():
    assert parse_card("QS") == parse_card("qs") and hash(parse_card("QS")) == hash(Card("S", 12))
    assert format_cards(sorted(parse_cards("JK 2H KS AS 10H"), key=sort_key)) == "AS KS 2H 10H JK"


def test_a_shuffle_comes_from_the_generator_alone():
    one = shuffled_deck(0, random.Random("seed/1"))
    two = shuffled_deck(0, random.Random("seed/1"))
    assert one == two and sorted(one, key=sort_key) == full_deck()
    assert shuffled_deck(0, random.Random("seed/2")) != one


def test_removing_cards_as_a_multiset():
    hand = parse_cards("JK 5H JK 7S")
    assert remove_cards(hand, parse_cards("JK 7S")) == parse_cards("5H JK")
    assert remove_cards(hand, parse_cards("7S 7S")) is None
    assert hand == parse_cards("JK 5H JK 7S")
