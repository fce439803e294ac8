"""What happens when a player's turn timer runs out: document 004's penalty (every tile back
where it was, which for the engine means the table is unchanged, and the penalty draw).  The
draft a player was building lives above the engine, so there is nothing else to undo."""

from __future__ import annotations

from .actions import Action, Timeout
from .state import State


def timeout_action(state: State, seat: int) -> Action | None:
    """The action taken for ``seat`` when its time runs out, or None if it owes no move."""
    if state.over or seat != state.turn:
        return None
    return Timeout()
