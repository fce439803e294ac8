"""Build a position from notation, for scenario tests and bot puzzles.

    state = position(
        hands=["5H 6H 7H 9S", "2C 3C"],
        table=["8D 9D 10D"],
        stock="KS QS",
        discard="4C 7S",
        turn=0,
    )

The stock is drawn from its end and the discard pile's top is its last card (the last card
written in each).  Unless ``discarded_by`` says otherwise, the pile's cards were thrown in
turn by the players before ``turn``, the top card by the player just before.  ``displayed``
gives each player's cards in front of them (by default each table meld is the first
player's).  Positions need not hold all 52 cards; they check one rule at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..card_actions import Group
from ..card_melds import classify
from ..cards import parse_cards
from .rules import THAI_RUMMY, Rules
from .state import DRAW, State


def position(
    hands: Sequence[str],
    *,
    rules: Rules = THAI_RUMMY,
    table: Sequence[str] = (),
    displayed: Sequence[str] | None = None,
    stock: str = "",
    discard: str = "",
    discarded_by: Sequence[int | None] | None = None,
    turn: int = 0,
    phase: str = DRAW,
    shown: Sequence[int] = (),
    shown_before: Sequence[int] | None = None,
    penalties: Sequence[int] = (),
    passes: int = 0,
) -> State:
    players = len(hands)
    melds = [classify(Group.of(text).cards, rules) for text in table]
    pile = parse_cards(discard)
    if discarded_by is None:
        discarded_by = [(turn - len(pile) + i) % players for i in range(len(pile))]
    if displayed is None:
        displayed = [" ".join(table)] + [""] * (players - 1)
    earlier = shown if shown_before is None else shown_before
    return State(
        rules=rules,
        seats=["Ana", "Bogdan", "Cristi", "Dana"][:players],
        seed="scenario",
        dealer=(turn - 1) % players,
        stock=parse_cards(stock),
        discard=pile,
        discarded_by=list(discarded_by),
        hands=[parse_cards(h) for h in hands],
        table=melds,
        displayed=[parse_cards(d) for d in displayed],
        turn=turn,
        turn_number=10,
        phase=phase,
        shown=[s in shown for s in range(players)],
        shown_before=[s in earlier for s in range(players)],
        penalties=[penalties[s] if s < len(penalties) else 0 for s in range(players)],
        passes=passes,
    )
