"""Playing cards and their text notation, for the card rummies (Basic Rummy, Thai Rummy).

A card is written rank then suit: ``AS 10H QS 2C`` (ranks ``A 2-10 J Q K``, suits ``S H D C``
for spades, hearts, diamonds and clubs); ``JK`` is a joker.  Parsing also takes lower case,
``T`` for ten and the suit symbols (``Q♠``), and always writes the form above, so
``format_cards(parse_cards(text))`` gives the canonical text.  Cards are values: the two jokers
are equal and interchangeable.

Which rank follows which (aces low, high or both) is a rule of each game, not of the cards;
so are the cards' points.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import InvalidAction

SUITS = ("S", "H", "D", "C")
RANKS = range(1, 14)  # 1 is the ace, 11-13 jack, queen, king
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
JOKER_TEXT = "JK"
JOKER_SUIT = "X"

RANK_TEXT = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_FROM_TEXT = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10, "1": ACE}
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A card of ``suit`` (S/H/D/C) and ``rank`` (1-13), or a joker (``suit == "X"``)."""

    suit: str
    rank: int = 0
    # Worked out once per card, as for tiles (games.engine.tiles.Tile): read at every step of
    # every plan; equality and order stay the suit's and rank's.
    is_joker: bool = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)
    hashed: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        joker = self.suit == JOKER_SUIT
        object.__setattr__(self, "is_joker", joker)
        text = JOKER_TEXT if joker else f"{RANK_TEXT.get(self.rank, self.rank)}{self.suit}"
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "hashed", sum(map(ord, self.suit)) * 64 + self.rank)

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self) -> tuple[type[Card], tuple[str, int]]:
        return (Card, (self.suit, self.rank))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


JOKER = Card(JOKER_SUIT, 0)

_CACHE: dict[str, Card] = {JOKER_TEXT: JOKER}
for _suit in SUITS:
    for _rank in RANKS:
        _CACHE[f"{RANK_TEXT[_rank]}{_suit}"] = Card(_suit, _rank)


def parse_card(text: str) -> Card:
    if not isinstance(text, str):
        raise InvalidAction("not-a-card", text=repr(text))
    word = text.strip().upper()
    card = _CACHE.get(word)
    if card is not None:
        return card
    if len(word) >= 2:
        suit = _SUIT_SYMBOLS.get(word[-1], word[-1])
        rank = _RANK_FROM_TEXT.get(word[:-1])
        if rank is not None and suit in SUITS:
            return _CACHE[f"{RANK_TEXT[rank]}{suit}"]
    raise InvalidAction("not-a-card", text=text)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """``"AS 10H QS 2C JK"`` (spaces or commas) -> cards, in the order written."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(w) for w in words]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join([c.text for c in cards])


def full_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards in suit and rank order, then ``jokers`` jokers."""
    return [Card(s, r) for s in SUITS for r in RANKS] + [JOKER] * jokers


def shuffled_deck(jokers: int, rng: random.Random) -> list[Card]:
    """A deck shuffled by ``rng`` (a game's generator from the seed in its state)."""
    deck = full_deck(jokers)
    rng.shuffle(deck)
    return deck


def sort_key(card: Card) -> tuple[int, int]:
    """Hand order: by suit, then rank; jokers last."""
    if card.is_joker:
        return (len(SUITS), 0)
    return (SUITS.index(card.suit), card.rank)


def remove_cards(pool: list[Card], cards: Iterable[Card]) -> list[Card] | None:
    """``pool`` without ``cards`` (as a multiset), or ``None`` when the pool lacks one."""
    left = list(pool)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            return None
    return left
