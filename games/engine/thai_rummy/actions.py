"""Thai Rummy's actions and their compact notation (``parse_action(str(a)) == a``).

draw                      the top card of the stock
take 7H with 7H 8H 9H     7H from the discard pile with every card above it, 7H melded at
                          once in a new meld with at least one card from the hand
pass                      the stock is gone: the turn passes (all in a row: the hand ends)
meld 5S 5H 5D             a new meld from the hand
layoff 2 8H 9H            cards laid off on the table's meld 2 (melds count from 1)
discard QS                ends the turn (the last card: face down, going out)
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
    nothing_after,
    parse_common,
    split_verb,
)
from ..cards import Card, parse_card
from ..errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Take(Action):
    """``card`` from the discard pile and every card above it; ``meld`` (which holds
    ``card``) is melded at once."""

    verb: ClassVar[str] = "take"
    card: Card
    meld: Group

    def __str__(self) -> str:
        return f"{self.verb} {self.card} with {self.meld}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return self.verb


VERBS = (Draw.verb, Take.verb, Pass.verb, MeldCards.verb, LayOff.verb, Discard.verb)


def parse_action(text: str) -> Action:
    """The action written as ``text``; raises :class:`InvalidAction` when it is malformed."""
    verb, words = split_verb(text)
    if verb == Take.verb:
        if len(words) < 3 or words[1].lower() != "with":
            raise InvalidAction("take-needs-meld")
        return Take(parse_card(words[0]), Group.parse(words[2:]))
    if verb == Pass.verb:
        nothing_after(verb, words)
        return Pass()
    action = parse_common(verb, words)
    if action is None:
        raise InvalidAction("unknown-verb", verb=verb, verbs=list(VERBS))
    return action


__all__ = [
    "VERBS",
    "Action",
    "Discard",
    "Draw",
    "Group",
    "LayOff",
    "MeldCards",
    "Pass",
    "Take",
    "parse_action",
]
