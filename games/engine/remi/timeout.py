"""What the table does for a player whose move deadline passes (slow games).

The choice is deterministic and gives nothing away: say ready, draw from the wall, put back
a tile taken on condition, and discard the tile just drawn (or the last tile of the rack),
so the player's hand stays as they left it and the game moves on."""

from __future__ import annotations

from .actions import Action, Discard, Draw, Ready, Undo
from .state import DRAW, OPEN, PLAY, PRELUDE, State


def timeout_action(state: State, seat: int) -> Action | None:
    """The action taken for ``seat`` when its time runs out, or None if it owes no move."""
    if state.phase == PRELUDE:
        return None if state.ready[seat] else Ready()
    if seat != state.turn:
        return None
    if state.phase == OPEN:
        return Discard(state.racks[seat][-1])
    if state.phase == DRAW:
        return Draw()
    if state.phase == PLAY:
        if state.pending is not None:
            return Undo()
        return Discard(state.racks[seat][-1])
    return None
