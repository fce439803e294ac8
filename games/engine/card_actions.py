"""The actions the card rummies share, and the pieces of their notation
(``parse_action(str(a)) == a`` in each game's ``actions`` module).

draw                      the top card of the stock
meld 5S 5H 5D             a new meld from the hand (a joker: JK, or JK=6H for its reading)
layoff 2 8H 9H            cards laid off on the table's meld 2 (melds count from 1)
discard QS                ends the turn
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import JOKER_TEXT, Card, parse_card
from .core.numbers import parse_natural
from .errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Group:
    """Cards as a player wrote them; ``jokers_as`` lines up with the jokers (None: free;
    empty when no joker was given a reading)."""

    cards: tuple[Card, ...]
    jokers_as: tuple[Card | None, ...] = ()

    @classmethod
    def parse(cls, words: list[str]) -> Group:
        cards: list[Card] = []
        readings: list[Card | None] = []
        for word in words:
            head, equals, reading = word.upper().partition("=")
            card = parse_card(head)
            if card.is_joker:
                if equals and not reading:
                    raise InvalidAction("joker-reading-missing", word=word)
                stands = parse_card(reading) if reading else None
                if stands is not None and stands.is_joker:
                    raise InvalidAction("joker-as-joker", word=word)
                readings.append(stands)
            elif equals:
                raise InvalidAction("only-joker-stands", word=word)
            cards.append(card)
        if not cards:
            raise InvalidAction("no-cards")
        return cls(tuple(cards), tuple(readings) if any(readings) else ())

    @classmethod
    def of(cls, text: str) -> Group:
        return cls.parse(text.split())

    def __str__(self) -> str:
        readings = iter(self.jokers_as)
        words = []
        for card in self.cards:
            reading = next(readings, None) if card.is_joker else None
            words.append(f"{JOKER_TEXT}={reading}" if reading else str(card))
        return " ".join(words)


class Action:
    verb: ClassVar[str]


@dataclass(frozen=True, slots=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class MeldCards(Action):
    verb: ClassVar[str] = "meld"
    group: Group

    def __str__(self) -> str:
        return f"{self.verb} {self.group}"


@dataclass(frozen=True, slots=True)
class LayOff(Action):
    verb: ClassVar[str] = "layoff"
    onto: int  # the table's meld, counted from 1
    group: Group

    def __str__(self) -> str:
        return f"{self.verb} {self.onto} {self.group}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    verb: ClassVar[str] = "discard"
    card: Card

    def __str__(self) -> str:
        return f"{self.verb} {self.card}"


def meld_number(word: str) -> int:
    number = parse_natural(word, maximum=999)
    if not number:
        raise InvalidAction("not-a-meld-number", text=word)
    return number


def nothing_after(verb: str, words: list[str]) -> None:
    if words:
        raise InvalidAction("takes-nothing", verb=verb)


def parse_common(verb: str, words: list[str]) -> Action | None:
    """The shared verbs (``draw``, ``meld``, ``layoff``, ``discard``); None for another verb."""
    if verb == Draw.verb:
        nothing_after(verb, words)
        return Draw()
    if verb == MeldCards.verb:
        return MeldCards(Group.parse(words))
    if verb == LayOff.verb:
        if not words:
            raise InvalidAction("layoff-needs-meld")
        return LayOff(meld_number(words[0]), Group.parse(words[1:]))
    if verb == Discard.verb:
        if len(words) != 1:
            raise InvalidAction("discard-one-card")
        return Discard(parse_card(words[0]))
    return None


def split_verb(text: str) -> tuple[str, list[str]]:
    if not isinstance(text, str):
        raise InvalidAction("not-text")
    verb, *words = text.split() if text.strip() else ("",)
    return verb.lower(), words
