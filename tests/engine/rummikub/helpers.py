"""Helpers for the tile rummy's scenario tests."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine.rummikub import IllegalAction, apply, parse_tiles
from games.engine.rummikub.events import Event
from games.engine.rummikub.state import State


def bag(text: str) -> Counter:
    """Tiles as a multiset, for comparing racks whatever their order."""
    return Counter(parse_tiles(text))


def rack(state: State, seat: int) -> Counter:
    return Counter(state.racks[seat])


def table(state: State) -> list[str]:
    return [m.notation() for m in state.table]


def refused(state: State, seat: int, notation: str, code: str) -> IllegalAction:
    """The action is refused with ``code`` and the state is untouched."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, notation)
    assert info.value.code == code
    assert state.to_dict() == before
    return info.value


def penalised(state: State, seat: int, notation: str) -> tuple[State, list[dict]]:
    """The play is taken back: table unchanged, the player drew the penalty tiles from the
    stock and the turn passed.  Returns the new state and the faults."""
    new, events = apply(state, seat, notation)
    assert table(new) == table(state)
    drawn = min(state.rules.penalty_tiles, len(state.stock))
    assert len(new.stock) == len(state.stock) - drawn
    assert rack(new, seat) == rack(state, seat) + Counter(state.stock[len(state.stock) - drawn :])
    assert new.turn == (seat + 1) % state.players
    penalty = [e for e in events if e.code == "penalty"]
    assert len(penalty) == 1
    assert penalty[0].params["count"] == drawn
    return new, list(penalty[0].params["faults"])


def codes(events: list[Event]) -> list[str]:
    return [e.code for e in events]
