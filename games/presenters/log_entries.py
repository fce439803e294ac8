"""The game log as one viewer reads it, each entry worded once.

A page shows the latest ``LOG_ACTIONS`` actions, so a render words some forty entries of
which all but one were worded, for the same viewer, at the version before: a tenth of a
seat's render went on that.  A stored action never changes, so its lines for a viewer (a
seat, who alone reads its own secrets, or None for the spectators) in a language, with the
players' names as they are, are kept and handed out again, with its HTML (the ``<li>`` every
game's log lists it as).  The key holds the viewer's seat: an entry worded for one seat is
never given to another.  An action is known by its number and the moment it was written: a
number alone comes back after a database is emptied (the tests roll back each test's rows).

A socket's snapshot after a move holds the very action objects of the version before, with the
move's own added (``games.play.live_views.snapshot_after``): a viewer's list is then last
version's list with the new entries put in front, found by the objects' identity, so a render
looks up only the entries it has not met."""

from __future__ import annotations

import functools
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

# Viewers' lists, by their newest action and the viewer, language, names and wording: a few
# hundred live games for five viewers each.
MAX_LISTS = 4_000
# How far back a list is looked for: a process may hear of a few moves at once.
LOOK_BACK = 4
# The whitespace around each entry in the game pages' list (games/includes/log.html).
ENTRY_BEFORE, ENTRY_AFTER = "\n          ", "\n        "


class LogEntries(list[dict[str, Any]]):
    """A log's entries, newest first, with their HTML as the page lists them (``html``):
    one string instead of a template lookup per entry.  Read, never changed: a viewer's list
    is handed to each render of it."""

    @functools.cached_property
    def html(self) -> SafeString:
        return SafeString("".join(f"{ENTRY_BEFORE}{e['html']}{ENTRY_AFTER}" for e in self))


# By (the id of the list's newest action object, viewer, language, names, wording): the
# actions (held, so that no other object takes their ids) and their entries.
_lists: OrderedDict[tuple[Any, ...], tuple[tuple[Action, ...], LogEntries]] = OrderedDict()


def log_entries(
    actions: Sequence[Action], names: Sequence[str], seat: int | None, event_text: EventText
) -> LogEntries:
    """The log's entries, newest first, worded for ``seat`` (None: a spectator)."""
    language = get_language()
    names_key = tuple(str(name) for name in names)
    held = tuple(actions)
    viewer = (seat, language, names_key, event_text)
    before, known = _latest_known(held, viewer)
    if known == len(held) == len(before[0]):
        return before[1]
    entries = LogEntries(
        _as_entry(action, _entry(action, names, names_key, seat, language, event_text))
        for action in reversed(held[known:])
    )
    entries.extend(before[1][:known])
    if held and all(action.pk is not None for action in held):  # stored: they never change
        with _lock:
            _lists[(id(held[-1]), *viewer)] = (held, entries)
            while len(_lists) > MAX_LISTS:
                _lists.popitem(last=False)
    return entries


_NOTHING: tuple[tuple[Action, ...], LogEntries] = ((), LogEntries())


def _latest_known(
    held: tuple[Action, ...], viewer: tuple[Any, ...]
) -> tuple[tuple[tuple[Action, ...], LogEntries], int]:
    """The viewer's list that ends with one of ``held``'s newest actions, and how many of
    ``held``'s first actions it lists (the very objects, in order); else nothing, 0."""
    for end in range(len(held), max(len(held) - LOOK_BACK, 0), -1):
        newest = held[end - 1]
        with _lock:
            found = _lists.get((id(newest), *viewer))
        if found is None or not found[0] or found[0][-1] is not newest:
            continue
        before = found[0]
        start = len(before) - end
        if start >= 0 and all(a is b for a, b in zip(before[start:], held[:end], strict=True)):
            return found, end
        break
    return _NOTHING, 0


def _as_entry(action: Action, worded: Worded) -> dict[str, Any]:
    lines, html = worded
    return {"version": action.version, "seat": action.seat, "lines": list(lines), "html": html}


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
