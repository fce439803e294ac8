"""What one seat may see, listed field by field: its own rack, the table, how many tiles the
others hold, how many are left in the stock, and the result.  Other racks, the stock order
and the seed never appear; a spectator (``seat=None``) gets no rack.  Once the game is over
every rack is shown, as players turn their racks over to count them."""

from __future__ import annotations

from typing import Any

from .melds import Meld
from .state import State


def legal_verbs(state: State, seat: int | None) -> frozenset[str]:
    """The kinds of action ``seat`` may try now (a ``play`` may still earn a penalty; the
    ``timeout`` move is the site's, when the turn's time runs out)."""
    if seat is None or state.over or seat != state.turn:
        return frozenset()
    return frozenset({"play", "draw"})


def meld_view(meld: Meld) -> dict[str, Any]:
    return {
        "kind": meld.kind,
        "tiles": [str(t) for t in meld.tiles],
        "as": [str(s) for s in meld.stands_for],
        "notation": meld.notation(),
        "points": meld.points,
    }


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"no seat {seat!r} at this table")
    return {
        "game": "rummikub",
        "rules": state.rules.to_dict(),
        "seat": seat,
        "names": list(state.seats),
        "turn": state.turn,
        "turn_number": state.turn_number,
        "first_player": state.first_player,
        "opening_draws": [list(r) for r in state.opening_draws],
        "rack": [str(t) for t in state.racks[seat]] if seat is not None else None,
        "rack_counts": [len(r) for r in state.racks],
        "table": [meld_view(m) for m in state.table],
        "stock_count": len(state.stock),
        "melded": list(state.melded),
        "passes": state.passes,
        "can": sorted(legal_verbs(state, seat)),
        "result": state.result.to_dict() if state.result else None,
        "final_racks": [[str(t) for t in r] for r in state.racks] if state.over else None,
    }
