"""Small helpers for the scenario tests: play a few moves, check a refusal changes nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import IllegalAction, apply, parse_tiles
from games.engine.events import Event
from games.engine.state import State


def play(state: State, *moves: tuple[int, str]) -> tuple[State, list[Event]]:
    """Apply ``(seat, notation)`` moves in order; return the final state and every event."""
    events: list[Event] = []
    for seat, notation in moves:
        state, log = apply(state, seat, notation)
        events.extend(log)
    return state, events


def refused(state: State, seat: int, notation: str, code: str) -> IllegalAction:
    """The action is refused with ``code``, a readable message, and the state untouched."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, notation)
    assert info.value.code == code, info.value.message
    assert isinstance(info.value.message, str) and len(info.value.message) > 10
    assert str(info.value) == info.value.message
    assert state.to_dict() == before
    return info.value


def bag(text: str) -> Counter:
    """Tiles as a multiset, for comparing racks whatever their order."""
    return Counter(parse_tiles(text))


def rack(state: State, seat: int) -> Counter:
    return Counter(state.racks[seat])


def texts(events: list[Event], names: list[str], viewer: int | None = None) -> list[str]:
    return [e.text(names, viewer) for e in events]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
