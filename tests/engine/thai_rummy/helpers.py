"""Helpers for Thai Rummy's scenario tests."""

from __future__ import annotations

import pytest

from games.engine.cards import format_cards, sort_key
from games.engine.thai_rummy import IllegalAction, apply
from games.engine.thai_rummy.state import State


def refused(state: State, seat: int, notation: str, code: str) -> IllegalAction:
    """The action is refused with ``code`` and the state is untouched."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, notation)
    assert info.value.code == code
    assert state.to_dict() == before
    return info.value


def play(state: State, seat: int, *notations: str) -> tuple[State, list]:
    events: list = []
    for notation in notations:
        state, more = apply(state, seat, notation)
        events += more
    return state, events


def hand(state: State, seat: int) -> str:
    return format_cards(sorted(state.hands[seat], key=sort_key))


def table(state: State) -> list[str]:
    return [m.notation() for m in state.table]


def codes(events: list) -> list[str]:
    return [e.code for e in events]
