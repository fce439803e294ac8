"""Small helpers for the scenario tests: play a few moves, check a refusal changes nothing."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from games.engine import IllegalAction
from games.engine.remi import apply, parse_tiles
from games.engine.remi.events import Event
from games.engine.remi.state import State
from games.presenters.remi.refusals import message_for
from games.presenters.remi.text import event_line


def play(state: State, *moves: tuple[int, str]) -> tuple[State, list[Event]]:
    """Apply ``(seat, notation)`` moves in order; return the final state and every event."""
    events: list[Event] = []
    for seat, notation in moves:
        state, log = apply(state, seat, notation)
        events.extend(log)
    return state, events


def refused(state: State, seat: int, notation: str, code: str) -> IllegalAction:
    """The action is refused with ``code`` and JSON-ready parameters, the presentation has a
    readable sentence for it, and the state is untouched."""
    before = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        apply(state, seat, notation)
    refusal = info.value
    assert refusal.code == code, str(refusal)
    assert json.loads(json.dumps(refusal.as_data())) == refusal.as_data()
    assert str(refusal).startswith(code)  # logs name the code
    sentence = message_for(refusal, state.seats)
    assert len(sentence) > 10 and code not in sentence and "%(" not in sentence, sentence
    assert state.to_dict() == before
    return refusal


def bag(text: str) -> Counter:
    """Tiles as a multiset, for comparing racks whatever their order."""
    return Counter(parse_tiles(text))


def rack(state: State, seat: int) -> Counter:
    return Counter(state.racks[seat])


def texts(events: list[Event], names: list[str], viewer: int | None = None) -> list[str]:
    """The log's lines for ``viewer``, as the presentation words them."""
    return [event_line(e, names, viewer) for e in events]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
