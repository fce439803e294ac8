"""The game log as one viewer reads it, each entry worded once.

A page shows the latest ``LOG_ACTIONS`` actions, so a render words some forty entries of
which all but one were worded, for the same viewer, at the version before: a tenth of a
seat's render went on that.  A stored action never changes, so its lines for a viewer (a
seat, who alone reads its own secrets, or None for the spectators) in a language, with the
players' names as they are, are kept and handed out again.  The key holds the viewer's seat:
an entry worded for one seat is never given to another."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language

from games.models import Action

from .clock_text import with_clock_line

# Wording of one event: (event, the players' names, the viewer's seat or None) -> a line.
EventText = Callable[[Mapping[str, Any], Sequence[str], int | None], str]

# Entries kept per process, the least recently used dropped first: forty actions of a few
# hundred live games for five viewers each, at some 200 bytes an entry.
MAX_KEPT = 50_000

_kept: OrderedDict[tuple[Any, ...], tuple[str, ...]] = OrderedDict()
_lock = threading.Lock()  # renders run in several worker threads


def log_entries(
    actions: Sequence[Action], names: Sequence[str], seat: int | None, event_text: EventText
) -> list[dict[str, Any]]:
    """The log's entries, newest first, worded for ``seat`` (None: a spectator)."""
    language = get_language()
    names_key = tuple(str(name) for name in names)
    entries = []
    for action in reversed(actions):
        entries.append(
            {
                "version": action.version,
                "seat": action.seat,
                "lines": list(_lines(action, names, names_key, seat, language, event_text)),
            }
        )
    return entries


def _lines(
    action: Action,
    names: Sequence[str],
    names_key: tuple[str, ...],
    seat: int | None,
    language: str | None,
    event_text: EventText,
) -> tuple[str, ...]:
    written = action.__dict__.get("created_at")  # never a query for a field left out
    if action.pk is None or written is None:  # not stored yet: it may still change
        return _worded(action, names, seat, event_text)
    key = (action.pk, written, action.version, seat, language, names_key, event_text)
    with _lock:
        lines = _kept.get(key)
        if lines is not None:
            _kept.move_to_end(key)
            return lines
    lines = _worded(action, names, seat, event_text)
    with _lock:
        _kept[key] = lines
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return lines


def _worded(
    action: Action, names: Sequence[str], seat: int | None, event_text: EventText
) -> tuple[str, ...]:
    lines = [event_text(event, names, seat) for event in action.events or ()]
    return tuple(with_clock_line(lines, action, names, seat))


def forget() -> None:
    """Drop every kept entry (the tests that change a catalogue or a name in place)."""
    with _lock:
        _kept.clear()
