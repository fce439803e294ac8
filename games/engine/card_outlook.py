"""How promising a hand is, for the card rummies' hard bots: the points it risks and the
unseen cards that would turn some of its cards into a meld.

Only what the seat sees is counted as seen (its hand, the table, the visible discards); every
other card might still come, from the stock or the pile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .card_melds import ACES_HIGH, ACES_LOW, Meld, Rules
from .cards import ACE, KING, Card, full_deck

# What one unseen card that would make a meld is worth, against a point kept in hand.
OUT_WEIGHT = 2.5
POINT_WEIGHT = 0.4


def unseen_cards(hand: Sequence[Card], table: Sequence[Meld], visible: Iterable[Card]) -> set[Card]:
    seen = set(hand) | {c for m in table for c in m.cards} | set(visible)
    return {c for c in full_deck() if c not in seen}


def outs(hand: Sequence[Card], unseen: set[Card], rules: Rules) -> int:
    """How many unseen cards would make a new meld with two cards of ``hand``."""
    held = {c for c in hand if not c.is_joker}
    ranks: dict[int, int] = {}
    for card in held:
        ranks[card.rank] = ranks.get(card.rank, 0) + 1
    count = 0
    for card in unseen:
        if ranks.get(card.rank, 0) >= 2:
            count += 1
            continue
        near = [_step(card, d, rules.aces) for d in (-2, -1, 1, 2)]
        below2, below1, above1, above2 = (n in held for n in near)
        if (below1 and below2) or (below1 and above1) or (above1 and above2):
            count += 1
    return count


def _step(card: Card, delta: int, aces: str) -> Card | None:
    """The card ``delta`` ranks away in the same suit (None past the ends)."""
    if aces == ACES_HIGH:
        # The ace sits above the king only.
        high = (KING + 1 if card.rank == ACE else card.rank) + delta
        if not 2 <= high <= KING + 1:
            return None
        return Card(card.suit, ACE if high == KING + 1 else high)
    rank = card.rank + delta
    if aces != ACES_LOW:
        rank = (rank - 1) % 13 + 1
    return Card(card.suit, rank)


def promise(
    hand: Sequence[Card], unseen: set[Card], rules: Rules, points: Callable[[Card], int]
) -> float:
    """Higher is better: many ways to meld, few points at risk (by the game's ``points``)."""
    at_risk = sum(points(c) for c in hand)
    return OUT_WEIGHT * outs(hand, unseen, rules) - POINT_WEIGHT * at_risk
