"""The end of a game: rack totals and what each seat wins or loses (document 004,
"Winning the game"; see docs/rules.md for games that end without anyone going out)."""

from __future__ import annotations

from collections.abc import Sequence

from ..tiles import Tile
from .rules import Rules
from .state import OUT, Result


def rack_total(rack: Sequence[Tile], rules: Rules) -> int:
    return sum(rules.joker_value if t.is_joker else t.number for t in rack)


def final_result(racks: Sequence[Sequence[Tile]], rules: Rules, reason: str) -> Result:
    """The winner adds every other rack's total; every other player subtracts their own.
    Nobody out: the lowest total wins on the same terms, and a shared lowest total means no
    winner, so everyone subtracts their own."""
    totals = tuple(rack_total(r, rules) for r in racks)
    if reason == OUT:
        winner: int | None = next(i for i, r in enumerate(racks) if not r)
    else:
        lowest = min(totals)
        lowest_seats = [i for i, t in enumerate(totals) if t == lowest]
        winner = lowest_seats[0] if len(lowest_seats) == 1 else None
    scores = tuple(
        sum(t for j, t in enumerate(totals) if j != i) if i == winner else -totals[i]
        for i in range(len(racks))
    )
    return Result(reason, winner, totals, scores)
