"""What one seat may see.  Other racks, the wall order and the seed never appear here;
the wall is a count.  Spectators (``seat=None``) get no rack.  When the game is over every
rack is shown, as players turn their racks over at the end."""

from __future__ import annotations

from typing import Any

from ..tiles import format_tiles
from .legal import legal_verbs
from .state import OVER, State


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    view: dict[str, Any] = {
        "game": state.rules.game,
        "rules": state.rules.to_dict(),
        "seat": seat,
        "names": list(state.seats),
        "phase": state.phase,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "dealer": state.dealer,
        "first_player": state.first_player,
        "rack": [str(t) for t in state.racks[seat]] if seat is not None else None,
        "rack_counts": [len(r) for r in state.racks],
        "melds": [
            {
                "id": i,
                "kind": m.meld.kind,
                "tiles": [str(t) for t in m.meld.tiles],
                "as": [str(t) for t in m.meld.stands_for],
                "owners": list(m.owners),
                "by": m.by,
                "points": m.meld.points,
            }
            for i, m in enumerate(state.melds)
        ],
        "discards": [str(t) for t in state.discards],
        "discarded_by": list(state.discarded_by),
        "exposed": str(state.exposed) if state.exposed else None,
        "exposed_tile": str(state.exposed_tile) if state.exposed_tile else None,
        "wall_count": len(state.wall),
        "has_melded": [m is not None for m in state.melded_on],
        # In the turn of a first meld a player may not add to others' melds nor take their Jolys.
        "first_meld_turn": [m == state.turn_number for m in state.melded_on],
        "declared": list(state.declared),
        "ready": list(state.ready),
        "offers": [
            None
            if offer is None
            else {"label": offer.label, **({"tile": str(offer.tile)} if i == seat else {})}
            for i, offer in enumerate(state.offers)
        ],
        "requests": list(state.requests),
        "exchanged": list(state.exchanged),
        "pending": state.pending,
        "pending_tile": str(state.pending_tile) if state.pending_tile else None,
        "rebuilds": state.rebuilds,
        "idle_rebuilds": state.idle_rebuilds,
        "can": sorted(legal_verbs(state, seat)) if seat is not None else [],
        "result": state.result.to_dict() if state.result else None,
        "final_racks": [format_tiles(r).split() for r in state.racks] if over else None,
    }
    return view
