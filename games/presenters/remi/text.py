"""Remi's sentences: the game log's lines and the refusals' messages, in the viewer's language.

The engine says what happened and why a move was refused as codes with parameters
(``games.engine.remi.events``, ``games.engine.core.errors``); every sentence a player reads is
made here, with gettext and named placeholders so a translation may put the words in any
order.  A line of the log depends on who reads it: "You drew R5" for the player who drew,
"Ana drew a tile" for everyone else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.engine.remi import events as ev
from games.engine.remi.events import Event

Names = Sequence[str]
Params = Mapping[str, Any]


# --- Who --------------------------------------------------------------------------------------


def seat_name(names: Names, seat: int | None) -> str:
    """How the log names a seat that is not the viewer."""
    if seat is None:
        return pgettext("a player", "Someone")
    if 0 <= seat < len(names):
        return names[seat]
    return _("Seat %(number)s") % {"number": seat}


def _tiles(tiles: Sequence[str]) -> str:
    return " ".join(tiles)


def _listed(items: Sequence[str]) -> str:
    """``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return _("%(items)s and %(last)s") % {
        "items": pgettext("list separator", ", ").join(items[:-1]),
        "last": items[-1],
    }


def _label(label: str) -> str:
    """A doubla's announced label, 'high' or 'low'."""
    return {"high": pgettext("doubla", "high"), "low": pgettext("doubla", "low")}.get(label, label)


# --- The log ----------------------------------------------------------------------------------


def event_line(event: Event | Mapping[str, Any], names: Names, viewer: int | None = None) -> str:
    """One line of the log, for ``viewer`` (None: a spectator).  ``event`` may be the stored
    form (``Action.events``); a secret part is shown only to the seat it belongs to."""
    if not isinstance(event, Event):
        event = Event.from_dict(dict(event))
    line = EVENT_LINES.get(event.kind)
    return line(event, names, viewer) if line is not None else event.kind


def _said(
    event: Event, names: Names, viewer: int | None, mine: str, theirs: str, **params: Any
) -> str:
    """``mine`` for the viewer who acted, else ``theirs`` with ``%(name)s`` the actor."""
    if viewer is not None and viewer == event.seat:
        return mine % params
    return theirs % {"name": seat_name(names, event.seat), **params}


def _start(e: Event, names: Names, viewer: int | None) -> str:
    return _said(e, names, viewer, _("Play begins: you open."), _("Play begins: %(name)s opens."))


def _opened(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You opened the discard row with %(tiles)s."),
        _("%(name)s opened the discard row with %(tiles)s."),
        tiles=_tiles(e.tiles),
    )


def _drew(e: Event, names: Names, viewer: int | None) -> str:
    if e.secret and viewer is not None and viewer == e.seat:
        return _("You drew %(tiles)s.") % {"tiles": _tiles(e.secret)}
    return _said(e, names, viewer, _("You drew a tile."), _("%(name)s drew a tile."))


def _took(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You took %(tiles)s from the discard row."),
        _("%(name)s took %(tiles)s from the discard row."),
        tiles=_tiles(e.tiles),
    )


def _picked(e: Event, names: Names, viewer: int | None) -> str:
    if not e.count:
        return _took(e, names, viewer)
    return _said(
        e,
        names,
        viewer,
        ngettext(
            "You took %(tiles)s and %(count)d more tile from the discard row.",
            "You took %(tiles)s and %(count)d more tiles from the discard row.",
            e.count,
        ),
        ngettext(
            "%(name)s took %(tiles)s and %(count)d more tile from the discard row.",
            "%(name)s took %(tiles)s and %(count)d more tiles from the discard row.",
            e.count,
        ),
        tiles=_tiles(e.tiles),
        count=e.count,
    )


def _took_exposed(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You took the exposed tile %(tiles)s to go out."),
        _("%(name)s took the exposed tile %(tiles)s to go out."),
        tiles=_tiles(e.tiles),
    )


def _undone(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You put %(tiles)s back."),
        _("%(name)s put %(tiles)s back."),
        tiles=_tiles(e.tiles),
    )


def _melded(e: Event, names: Names, viewer: int | None) -> str:
    melds = _listed(list(e.tiles))
    if not e.count:
        return _said(
            e,
            names,
            viewer,
            _("You melded %(melds)s."),
            _("%(name)s melded %(melds)s."),
            melds=melds,
        )
    # The points are shown for a first meld only (``count``).
    return _said(
        e,
        names,
        viewer,
        ngettext(
            "You melded %(melds)s (%(points)d point).",
            "You melded %(melds)s (%(points)d points).",
            e.count,
        ),
        ngettext(
            "%(name)s melded %(melds)s (%(points)d point).",
            "%(name)s melded %(melds)s (%(points)d points).",
            e.count,
        ),
        melds=melds,
        points=e.count,
    )


def _added(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You added %(tiles)s to meld %(meld)s."),
        _("%(name)s added %(tiles)s to meld %(meld)s."),
        tiles=_tiles(e.tiles),
        meld=e.other,
    )


def _swapped(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You freed the Joly of meld %(meld)s with %(tiles)s."),
        _("%(name)s freed the Joly of meld %(meld)s with %(tiles)s."),
        tiles=_tiles(e.tiles),
        meld=e.other,
    )


def _discarded(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You discarded %(tiles)s."),
        _("%(name)s discarded %(tiles)s."),
        tiles=_tiles(e.tiles),
    )


def _declared(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        _("You declared the twin of the exposed tile (%(tiles)s): +25 at the end."),
        _("%(name)s declared the twin of the exposed tile (%(tiles)s): +25 at the end."),
        tiles=_tiles(e.tiles),
    )


def _doubla(e: Event, names: Names, viewer: int | None) -> str:
    mine = viewer is not None and viewer == e.seat
    label = _label(e.label)
    if mine and e.secret:
        pair = _tiles(e.secret)
        if label:
            return _("You offer a doubla (%(label)s) — your %(pair)s pair.") % {
                "label": label,
                "pair": pair,
            }
        return _("You offer a doubla — your %(pair)s pair.") % {"pair": pair}
    if label:
        return _said(
            e,
            names,
            viewer,
            _("You offer a doubla (%(label)s)."),
            _("%(name)s offers a doubla (%(label)s)."),
            label=label,
        )
    return _said(e, names, viewer, _("You offer a doubla."), _("%(name)s offers a doubla."))


def _between(e: Event, names: Names, viewer: int | None, mine: str, yours: str, theirs: str) -> str:
    """A sentence about two seats: ``mine`` when the viewer is the actor (``%(other)s`` the
    other seat), ``yours`` when the viewer is the other seat (``%(name)s`` the actor),
    ``theirs`` for anyone else."""
    if viewer is not None and viewer == e.seat:
        return mine % {"other": seat_name(names, e.other)}
    if viewer is not None and viewer == e.other:
        return yours % {"name": seat_name(names, e.seat)}
    return theirs % {"name": seat_name(names, e.seat), "other": seat_name(names, e.other)}


def _exchange_asked(e: Event, names: Names, viewer: int | None) -> str:
    return _between(
        e,
        names,
        viewer,
        _("You ask %(other)s to exchange doublas."),
        _("%(name)s asks you to exchange doublas."),
        _("%(name)s asks %(other)s to exchange doublas."),
    )


def _exchanged(e: Event, names: Names, viewer: int | None) -> str:
    return _between(
        e,
        names,
        viewer,
        _("You and %(other)s exchanged doublas."),
        _("%(name)s and you exchanged doublas."),
        _("%(name)s and %(other)s exchanged doublas."),
    )


def _ready(e: Event, names: Names, viewer: int | None) -> str:
    return _said(e, names, viewer, _("You are ready."), _("%(name)s is ready."))


def _few_tiles(e: Event, names: Names, viewer: int | None) -> str:
    return _said(
        e,
        names,
        viewer,
        ngettext("You have %(count)d tile left!", "You have %(count)d tiles left!", e.count),
        ngettext(
            "%(name)s has %(count)d tile left!", "%(name)s has %(count)d tiles left!", e.count
        ),
        count=e.count,
    )


def _rebuilt(e: Event, names: Names, viewer: int | None) -> str:
    return ngettext(
        "The wall was rebuilt from %(count)d discarded tile.",
        "The wall was rebuilt from %(count)d discarded tiles.",
        e.count,
    ) % {"count": e.count}


def _went_out(e: Event, names: Names, viewer: int | None) -> str:
    return _said(e, names, viewer, _("You went out!"), _("%(name)s went out!"))


def _no_winner(e: Event, names: Names, viewer: int | None) -> str:
    if e.label == "stuck":
        return _("No tile left off the table can ever be laid: the game ends with no winner.")
    if e.label == "cap":
        return _("The wall ran out again with nothing laid: the game ends with no winner.")
    if e.label == "limit":
        return _("The wall may not be rebuilt again: the game ends with no winner.")
    return _("Nothing is left to draw: the game ends with no winner.")


EventLine = Callable[[Event, Names, "int | None"], str]

EVENT_LINES: dict[str, EventLine] = {
    ev.START: _start,
    ev.OPENED: _opened,
    ev.DREW: _drew,
    ev.TOOK: _took,
    ev.PICKED: _picked,
    ev.TOOK_EXPOSED: _took_exposed,
    ev.UNDONE: _undone,
    ev.MELDED: _melded,
    ev.ADDED: _added,
    ev.SWAPPED: _swapped,
    ev.DISCARDED: _discarded,
    ev.DECLARED: _declared,
    ev.DOUBLA: _doubla,
    ev.EXCHANGE_ASKED: _exchange_asked,
    ev.EXCHANGED: _exchanged,
    ev.READY: _ready,
    ev.FEW_TILES: _few_tiles,
    ev.REBUILT: _rebuilt,
    ev.WENT_OUT: _went_out,
    ev.NO_WINNER: _no_winner,
}
