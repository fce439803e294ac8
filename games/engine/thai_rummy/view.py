"""What one seat may see, listed field by field: its own hand, the table (melds, and the
cards each player displayed), the whole discard pile (spread so every card can be seen, as
document 003 says) and who threw each card, how many cards the others and the stock hold,
the penalties so far, and the result.  Other hands, the stock order and the seed never
appear; a spectator (``seat=None``) gets no hand.  Once the hand is over every hand is
shown, with the card the winner discarded face down, as players lay down their cards to
count them."""

from __future__ import annotations

from typing import Any

from ..card_melds import meld_view
from .state import DRAW, State


def legal_verbs(state: State, seat: int | None) -> frozenset[str]:
    """The kinds of action ``seat`` may try now (``apply`` judges the cards)."""
    if seat is None or state.over or seat != state.turn:
        return frozenset()
    if state.phase == DRAW:
        return frozenset({"draw" if state.stock else "pass", "take"})
    verbs = {"discard"}
    if len(state.hands[seat]) > 1:
        verbs.add("meld")
        if state.table:
            verbs.add("layoff")
    return frozenset(verbs)


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
    ):
        raise ValueError(f"no seat {seat!r} at this table")
    return {
        "game": "thai-rummy",
        "rules": state.rules.to_dict(),
        "seat": seat,
        "names": list(state.seats),
        "dealer": state.dealer,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase,
        "hand": [str(c) for c in state.hands[seat]] if seat is not None else None,
        "hand_counts": [len(h) for h in state.hands],
        "table": [meld_view(m) for m in state.table],
        "displayed": [[str(c) for c in d] for d in state.displayed],
        "stock_count": len(state.stock),
        "discard": [str(c) for c in state.discard],
        "discarded_by": list(state.discarded_by),
        "took_top_of": state.took_top_of,
        "shown": list(state.shown),
        "shown_before": list(state.shown_before),
        "penalties": list(state.penalties),
        "passes": state.passes,
        "can": sorted(legal_verbs(state, seat)),
        "result": state.result.to_dict() if state.result else None,
        "final_hands": [[str(c) for c in h] for h in state.hands] if state.over else None,
        "face_down": str(state.face_down) if state.over and state.face_down else None,
    }
