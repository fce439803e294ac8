"""What one seat may see, listed field by field: its own hand, the table, the top of the
discard pile (the whole pile when the rummy 500 pickup is played, as the pile is then spread
out), how many cards the others hold and the stock holds, and the result.  Other hands, the
stock order, the cards buried in a squared-up pile and the seed never appear; a spectator
(``seat=None``) gets no hand.  Once the hand is over every hand is shown, as players lay
their cards down to count them."""

from __future__ import annotations

from typing import Any

from ..card_melds import meld_view
from .state import DRAW, PLAY, State
from .turns import may_go_out


def legal_verbs(state: State, seat: int | None) -> frozenset[str]:
    """The kinds of action ``seat`` may try now (``apply`` judges the cards)."""
    if seat is None or state.over or seat != state.turn:
        return frozenset()
    if state.phase == DRAW:
        return frozenset({"draw", "take"} if state.discard else {"draw"})
    verbs = {"discard", "meld"}
    if state.rules.one_meld_per_turn and state.melds_this_turn:
        verbs.discard("meld")
    if state.table and (state.melded[seat] or not state.rules.lay_off_after_own_meld):
        verbs.add("layoff")
    return frozenset(verbs)


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.players
    ):
        raise ValueError(f"no seat {seat!r} at this table")
    spread = state.rules.deep_pickup
    return {
        "game": "basic-rummy",
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
        "stock_count": len(state.stock),
        "discard_top": str(state.top) if state.top else None,
        "discard_count": len(state.discard),
        "discard": [str(c) for c in state.discard] if spread else None,
        "taken": str(state.taken) if state.taken and state.phase == PLAY else None,
        "melds_this_turn": state.melds_this_turn,
        "melded": list(state.melded),
        "played_before": list(state.played_before),
        "turns_taken": list(state.turns_taken),
        "may_go_out": [may_go_out(state, s) for s in range(state.players)],
        "restocks": state.restocks,
        "can": sorted(legal_verbs(state, seat)),
        "result": state.result.to_dict() if state.result else None,
        "final_hands": [[str(c) for c in h] for h in state.hands] if state.over else None,
    }
