"""The end of a hand: winner takes all (document 004, "Scoring").

Cards left in a hand count face cards 10, aces ``rules.ace_points`` (1 in 004), others their
rank; jokers nothing (001).  The winner gets the sum of every other hand, doubled for going
rummy; the bonus for going out (001's variation) is added after the doubling.  Block rummy:
nobody went out, so everybody loses the points in hand.  A stalemate scores nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import JACK, Card
from .rules import Rules
from .state import BLOCKED, OUT, Result


def card_points(card: Card, rules: Rules) -> int:
    if card.is_joker:
        return 0
    if card.rank == 1:
        return rules.ace_points
    return 10 if card.rank >= JACK else card.rank


def hand_value(hand: Sequence[Card], rules: Rules) -> int:
    return sum(card_points(c, rules) for c in hand)


def final_result(
    hands: Sequence[Sequence[Card]],
    rules: Rules,
    reason: str,
    winner: int | None = None,
    rummy: bool = False,
) -> Result:
    values = tuple(hand_value(h, rules) for h in hands)
    if reason == OUT and winner is not None:
        won = sum(values) - values[winner]
        doubled = rummy and rules.rummy_doubles
        total = won * (2 if doubled else 1) + rules.out_bonus
        scores = tuple(total if s == winner else 0 for s in range(len(hands)))
        return Result(reason, winner, values, scores, doubled, rules.out_bonus)
    if reason == BLOCKED:
        return Result(reason, None, values, tuple(-v for v in values))
    return Result(reason, None, values, tuple(0 for _ in values))
