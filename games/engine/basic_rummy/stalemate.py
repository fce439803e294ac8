"""Whether any player can still ever finish (document 004, "Stalemate": "when the game detects
that none of the players will be able to finish their hands").

A hand shrinks only by melding or laying off, so when no card outside the table can ever join
a meld, nobody can finish.  The test errs on the side of play: it declares a stalemate only
when that is certain, taking every card off the table (hands, stock, discard pile) as if one
player could gather them all.  A joker off the table always counts as playable.
"""

from __future__ import annotations

from collections import defaultdict

from ..card_melds import ACES_LOW, MAX_SET, MIN_MELD, RUN, SET, Meld
from ..cards import RANKS, SUITS, Card
from .rules import Rules


def nobody_can_finish(off_table: list[Card], table: list[Meld], rules: Rules) -> bool:
    if any(c.is_joker for c in off_table):
        return False
    loose = set(off_table)
    return not any(_could_join(card, loose, table, rules) for card in loose)


def _could_join(card: Card, loose: set[Card], table: list[Meld], rules: Rules) -> bool:
    same_rank = sum(Card(s, card.rank) in loose for s in SUITS)
    if same_rank >= MIN_MELD:
        return True
    for meld in table:
        if meld.kind == SET and meld.rank == card.rank and len(meld.cards) < MAX_SET:
            return True
    return _run_reachable(card, loose, table, rules)


def _run_reachable(card: Card, loose: set[Card], table: list[Meld], rules: Rules) -> bool:
    """The loose cards of ``card``'s suit joined to it rank by rank: three in a row, or a
    stretch that touches a run on the table.  With aces not only low, the ace is taken as
    next to both the 2 and the king (more generous than any one rule)."""
    on_runs: dict[int, bool] = defaultdict(bool)
    for meld in table:
        if meld.kind == RUN and meld.suit == card.suit:
            for stood in meld.stands:
                on_runs[stood.rank] = True
    stretch = {card.rank}
    frontier = [card.rank]
    touches = False
    while frontier:
        rank = frontier.pop()
        for near in _neighbours(rank, rules):
            if on_runs[near]:
                touches = True
            elif Card(card.suit, near) in loose and near not in stretch:
                stretch.add(near)
                frontier.append(near)
    return touches or len(stretch) >= MIN_MELD


def _neighbours(rank: int, rules: Rules) -> list[int]:
    near = [r for r in (rank - 1, rank + 1) if r in RANKS]
    if rules.aces != ACES_LOW:
        if rank == 1:
            near.append(13)
        elif rank == 13:
            near.append(1)
    return near
