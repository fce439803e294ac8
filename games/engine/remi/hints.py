"""Questions the page asks the engine about a seat's options, answered from that seat's own
view (so an answer can never carry what the seat may not see)."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction, InvalidMeld
from .actions import Group
from .bots import visible_state
from .melds import classify
from .solver import TILES, solve


def exposed_goes_out(view: dict[str, Any]) -> bool:
    """Whether the viewing seat, starting its turn, can go out by taking the exposed tile.

    Taking it binds the player to go out this turn — every tile but one melded, the last one
    discarded — or to put it back; the page asks for a confirmation when this says no.  The
    same judgement as the bots' (most tiles placed, a first meld by its own rules)."""
    if "exposed" not in view["can"] or not view["exposed"] or view["seat"] is None:
        return False
    state = visible_state(view)
    seat = view["seat"]
    rack = [*state.racks[seat], state.exposed]
    first = state.melded_on[seat] is None
    plan = solve(
        rack,
        [m.meld for m in state.melds],
        state.rules,
        first_meld=first,
        may_add=not first,
        objective=TILES,
    )
    return plan is not None and plan.tiles == len(rack) - 1


def first_meld_points(text: str) -> int:
    """What a selection written as meld groups (``R1 R2 R3 | K5 B5 J``) is worth toward the
    first melds: the groups that already are melds count, the others (still being built) do
    not.  Rules options do not change meld values, so no state is needed."""
    points = 0
    for chunk in text.split("|"):
        try:
            group = Group.of(chunk)
            points += classify(group.tiles, jokers_as=group.designations()).points
        except (InvalidAction, InvalidMeld, ValueError):
            continue
    return points
