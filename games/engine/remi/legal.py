"""Which kinds of action a seat may try now — for buttons in the UI and for bots.

This is coarse by design: it says 'meld' is possible in this phase, not which melds; the
engine still judges each concrete action."""

from __future__ import annotations

from .state import DRAW, GO_OUT, OPEN, OVER, PLAY, PRELUDE, USE_DISCARD, State


def legal_verbs(state: State, seat: int | None) -> set[str]:
    if seat is None or state.phase == OVER:
        return set()
    verbs: set[str] = set()
    if (
        not state.acted[seat]
        and not state.declared[seat]
        and state.exposed_tile is not None
        and state.exposed_tile in state.racks[seat]
    ):
        verbs.add("declare")
    if state.phase == PRELUDE:
        if not state.ready[seat]:
            verbs.add("ready")
        if state.offers[seat] is None and (state.rules.many_doublas or not state.exchanged[seat]):
            rack = state.racks[seat]
            if any(rack.count(t) >= 2 and not t.is_joker for t in set(rack)):
                verbs.add("doubla")
        if state.offers[seat] is not None and any(
            o is not None for i, o in enumerate(state.offers) if i != seat
        ):
            verbs.add("exchange")
        return verbs
    if seat != state.turn:
        return verbs
    rack_size = len(state.racks[seat])
    melded = state.melded_on[seat] is not None
    first_turn = state.melded_on[seat] == state.turn_number
    if state.phase == OPEN:
        verbs.add("discard")
    elif state.phase == DRAW:
        verbs.add("draw")
        if state.exposed is not None:
            verbs.add("exposed")
        row_open = len(state.discards) >= 2 and rack_size > 2
        if row_open and (melded or state.rules.first_meld_takes_discard):
            verbs.add("take")
        if row_open and melded:
            verbs.add("pick")
    elif state.phase == PLAY:
        if state.pending in (GO_OUT, USE_DISCARD):
            verbs.add("undo")
        # Bound to go out (the exposed tile taken), a discard is the last tile or nothing.
        if state.pending != USE_DISCARD and (state.pending != GO_OUT or rack_size == 1):
            verbs.add("discard")
        verbs.add("meld")
        if melded and state.melds:
            verbs.add("add")
            own_only = first_turn and state.rules.first_meld_turn_swap
            if any(
                m.meld.joker_count and (not first_turn or (own_only and m.by == seat))
                for m in state.melds
            ):
                verbs.add("swap")
    return verbs
