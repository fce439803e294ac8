"""Basic Rummy's actions and their compact notation (``parse_action(str(a)) == a``); the
verbs it shares with Thai Rummy live in :mod:`games.engine.card_actions`.

draw                      the top card of the stock
take                      the top card of the discard pile
take 7H with 7H 8H 9H     rummy 500 pickup: 7H and every card above it, 7H melded at once
take 7H on 2              ... or 7H laid off on the table's meld 2
meld 5S 5H 5D             a new meld from the hand (a joker: JK, or JK=6H for its reading)
layoff 2 8H 9H            cards laid off on the table's meld 2 (melds count from 1)
discard QS                ends the turn (the last card: goes out)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..card_actions import (
    Action,
    Discard,
    Draw,
    Group,
    LayOff,
    MeldCards,
    meld_number,
    parse_common,
    split_verb,
)
from ..cards import Card, parse_card
from ..errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Take(Action):
    """The discard pile's top card; or, with ``card``, that card and all above it, used at
    once in a new meld (``meld``) or laid off on the table's meld ``onto`` (from 1)."""

    verb: ClassVar[str] = "take"
    card: Card | None = None
    meld: Group | None = None
    onto: int | None = None

    def __str__(self) -> str:
        if self.card is None:
            return self.verb
        if self.meld is not None:
            return f"{self.verb} {self.card} with {self.meld}"
        return f"{self.verb} {self.card} on {self.onto}"


VERBS = (Draw.verb, Take.verb, MeldCards.verb, LayOff.verb, Discard.verb)


def parse_action(text: str) -> Action:
    """The action written as ``text``; raises :class:`InvalidAction` when it is malformed."""
    verb, words = split_verb(text)
    if verb == Take.verb:
        return _take(words)
    action = parse_common(verb, words)
    if action is None:
        raise InvalidAction("unknown-verb", verb=verb, verbs=list(VERBS))
    return action


def _take(words: list[str]) -> Take:
    if not words:
        return Take()
    card = parse_card(words[0])
    if len(words) >= 3 and words[1].lower() == "with":
        return Take(card, meld=Group.parse(words[2:]))
    if len(words) == 3 and words[1].lower() == "on":
        return Take(card, onto=meld_number(words[2]))
    raise InvalidAction("take-needs-use", card=str(card))


__all__ = [
    "VERBS",
    "Action",
    "Discard",
    "Draw",
    "Group",
    "LayOff",
    "MeldCards",
    "Take",
    "parse_action",
]
