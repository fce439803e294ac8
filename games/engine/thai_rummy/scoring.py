"""The end of a hand (document 003, "Scoring").

Cards count 5 (2-9), 10 (10, J, Q, K) or 15 (aces), but the queen of spades and the two of
clubs 50 each.  Each player scores the cards displayed in front of them (their melds and
lay-offs) less, when they did not go out, the cards left in hand; the player who went out
adds 50.  A player who showed no meld before the final turn has the score doubled (the
winner with the +50 unless the rules say otherwise; a loser who showed none at all).  The
-50 penalties come after the doubling: each discard that fitted a meld on the table, and
the last discard of a player the winner went out on after taking that card alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import ACE, Card
from .rules import Rules
from .state import OUT, Result

OUT_BONUS = 50
PENALTY = 50
SPECIAL_CARDS = (Card("S", 12), Card("C", 2))  # the queen of spades and the two of clubs


def card_points(card: Card) -> int:
    if card in SPECIAL_CARDS:
        return 50
    if card.rank == ACE:
        return 15
    return 10 if card.rank >= 10 else 5


def points(cards: Sequence[Card]) -> int:
    return sum(card_points(c) for c in cards)


def final_result(
    *,
    rules: Rules,
    reason: str,
    hands: Sequence[Sequence[Card]],
    displayed: Sequence[Sequence[Card]],
    shown: Sequence[bool],
    shown_before: Sequence[bool],
    penalties: Sequence[int],
    winner: int | None = None,
    fed_by: int | None = None,
) -> Result:
    """``fed_by``: the player whose last discard, taken alone, the winner went out on."""
    players = len(hands)
    shown_points = tuple(points(d) for d in displayed)
    in_hand = tuple(points(h) for h in hands)
    scores, doubled, charged = [], [], []
    for seat in range(players):
        if reason == OUT and seat == winner:
            double = not shown_before[seat]
            score = shown_points[seat]
            if double and rules.double_out_bonus:
                score = 2 * (score + OUT_BONUS)
            elif double:
                score = 2 * score + OUT_BONUS
            else:
                score += OUT_BONUS
        else:
            double = not shown[seat]
            score = (shown_points[seat] - in_hand[seat]) * (2 if double else 1)
        penalty = PENALTY * penalties[seat] + (PENALTY if seat == fed_by else 0)
        scores.append(score - penalty)
        doubled.append(double)
        charged.append(penalty)
    return Result(
        reason,
        winner if reason == OUT else None,
        shown_points,
        in_hand,
        tuple(doubled),
        tuple(charged),
        tuple(scores),
        OUT_BONUS if reason == OUT else 0,
    )
