"""The game log as one viewer reads it, each entry worded once.

A page shows the latest ``LOG_ACTIONS`` actions, so a render words some forty entries of
which all but one were worded, for the same viewer, at the version before: a tenth of a
seat's render went on that.  A stored action never changes, so its lines for a viewer (a
seat, who alone reads its own secrets, or None for the spectators) in a language, with the
players' names as they are, are kept and handed out again, with its HTML (the ``<li>`` every
game's log lists it as).  The key holds the viewer's seat: an entry worded for one seat is
never given to another.  An action is known by its number and the moment it was written: a
number alone comes back after a database is emptied (the tests roll back each test's rows)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.models import Action

from .clock_text import with_clock_line

# Wording of one event: (event, the players' names, the viewer's seat or None) -> a line.
EventText = Callable[[Mapping[str, Any], Sequence[str], int | None], str]

# Entries kept per process, the least recently used dropped first: forty actions of a few
# hundred live games for five viewers each, at some 200 bytes an entry.
MAX_KEPT = 50_000

# An entry's lines, and its HTML.
Worded = tuple[tuple[str, ...], SafeString]

_kept: OrderedDict[tuple[Any, ...], Worded] = OrderedDict()
_lock = threading.Lock()  # renders run in several worker threads


def log_entries(
    actions: Sequence[Action], names: Sequence[str], seat: int | None, event_text: EventText
) -> list[dict[str, Any]]:
    """The log's entries, newest first, worded for ``seat`` (None: a spectator)."""
    language = get_language()
    names_key = tuple(str(name) for name in names)
    entries = []
    for action in reversed(actions):
        lines, html = _entry(action, names, names_key, seat, language, event_text)
        entries.append(
            {"version": action.version, "seat": action.seat, "lines": list(lines), "html": html}
        )
    return entries


def _entry(
    action: Action,
    names: Sequence[str],
    names_key: tuple[str, ...],
    seat: int | None,
    language: str | None,
    event_text: EventText,
) -> Worded:
    written = action.__dict__.get("created_at")  # never a query for a field left out
    if action.pk is None or written is None:  # not stored yet: it may still change
        return _worded(action, names, seat, event_text)
    key = (action.pk, written, action.version, seat, language, names_key, event_text)
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    worded = _worded(action, names, seat, event_text)
    with _lock:
        _kept[key] = worded
        while len(_kept) > MAX_KEPT:
            _kept.popitem(last=False)
    return worded


def _worded(
    action: Action, names: Sequence[str], seat: int | None, event_text: EventText
) -> Worded:
    lines = [event_text(event, names, seat) for event in action.events or ()]
    lines = with_clock_line(lines, action, names, seat)
    spans = format_html_join("", '<span class="log-line">{}</span>', ((line,) for line in lines))
    html = format_html(
        '<li value="{}" data-version="{}">{}</li>', action.version, action.version, spans
    )
    return tuple(lines), html
