"""Build a position from notation, for scenario tests and bot puzzles.

    state = position(
        hands=["5H 6H 7H 9S", "2C 3C"],
        table=["8D 9D 10D"],
        stock="KS QS",
        discard="4C 7S",
        turn=0,
    )

The stock is drawn from its end and the discard pile's top is its last card (the last card
written in each).  Positions need not hold all 52 cards; they check one rule at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..card_melds import classify
from ..cards import parse_card, parse_cards
from .actions import Group
from .rules import BASIC_RUMMY, Rules
from .state import DRAW, State


def position(
    hands: Sequence[str],
    *,
    rules: Rules = BASIC_RUMMY,
    table: Sequence[str] = (),
    stock: str = "",
    discard: str = "",
    turn: int = 0,
    phase: str = DRAW,
    taken: str | None = None,
    played_before: Sequence[int] = (),
    melded: Sequence[int] = (),
    turns_taken: int = 3,
    restocks: int = 0,
) -> State:
    players = len(hands)
    melds = []
    for text in table:
        group = Group.of(text)
        melds.append(classify(group.cards, rules, group.jokers_as))
    return State(
        rules=rules,
        seats=["Ana", "Bogdan", "Cristi", "Dana", "Elena", "Florin"][:players],
        seed="scenario",
        dealer=(turn - 1) % players,
        stock=parse_cards(stock),
        discard=parse_cards(discard),
        hands=[parse_cards(h) for h in hands],
        table=melds,
        turn=turn,
        turn_number=10,
        phase=phase,
        taken=parse_card(taken) if taken else None,
        played_before=[s in played_before for s in range(players)],
        melded=[s in melded for s in range(players)],
        turns_taken=[turns_taken] * players,
        restocks=restocks,
    )
