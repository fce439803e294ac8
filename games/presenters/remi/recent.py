"""What changed last, for the marks on the Remi page: the tiles the viewer took this turn,
the melds the previous player laid or changed, and what that player's turn did to the row and
the table, piece by piece (``turn_changes``, for the ring of ``turn_marks``).  Read from the
stored action log; a drawn tile (an event's secret) counts only for the seat that drew it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.remi import events as ev
from games.models import Action
from games.presenters.turn_marks import Changes, same_turn

TAKING = (ev.TOOK, ev.TOOK_EXPOSED)
CHANGING_A_MELD = (ev.ADDED, ev.SWAPPED)


def taken_this_turn(actions: Sequence[Action], seat: int | None) -> list[str]:
    """The tiles ``seat`` drew or took in the turn it is playing (none for a spectator)."""
    run = same_turn(actions)
    if seat is None or not run or run[0].seat != seat:
        return []
    taken: list[str] = []
    for action in reversed(run):
        for event in action.events or ():
            if event.get("seat") != seat:
                continue
            if event["kind"] == ev.DREW:
                taken.extend(event.get("secret", ()))
            elif event["kind"] in TAKING:
                taken.extend(event.get("tiles", ()))
    return taken


def _codes(notation: str) -> list[str]:
    """A meld's tiles from its notation, a Joly as J whatever it stands for."""
    return sorted(
        "J" if word.upper().startswith("J") else word.upper() for word in notation.split()
    )


def melds_just_played(
    actions: Sequence[Action], seat: int | None, melds: Sequence[dict[str, Any]]
) -> set[int]:
    """Ids of the table melds the last player to act (not the viewer) laid or changed."""
    run = same_turn(actions)
    if not run or run[0].seat == seat:
        return set()
    laid: list[list[str]] = []
    changed: set[int] = set()
    for action in run:
        for event in action.events or ():
            if event["kind"] == ev.MELDED:
                laid.extend(_codes(text) for text in event.get("tiles", ()))
            elif event["kind"] in CHANGING_A_MELD and event.get("other") is not None:
                changed.add(int(event["other"]))
    for meld in melds:
        codes = _codes(" ".join(meld["tiles"]))
        if codes in laid and meld["by"] == run[0].seat:
            laid.remove(codes)
            changed.add(meld["id"])
    return changed


# The parts whose pieces the page rings, and the exposed tile's face in the row's part (it is
# drawn apart from the row's tiles, so the page counts it as a face of its own).
ROW, MELDS = "row", "melds"
EXPOSED = "exposed "


def meld_face(code: str, stands: str | None) -> str:
    """A meld tile's face as the page tells it apart: a Joly by the tile it stands for."""
    if code == "J":
        return f"J={stands}" if stands and stands != "J" else "J"
    return code


def _notation_faces(notation: str) -> list[str]:
    """A notation's words are the faces: ``J=R7`` for a Joly standing for R7, ``J`` alone
    when its meld decides."""
    return notation.split()


def turn_changes(run: Sequence[Action], melds: Mapping[int, Sequence[str]]) -> list[Changes]:
    """Each action's net change (oldest first) to the row's and the table's pieces, from the
    public fields of its events.  ``melds``: each table meld's faces now, to read what a Joly
    added without a designation stands for.  A take's or an undo's tiles are public (the row
    and the exposed tile are); a drawn tile is a secret and changes no part."""
    steps: list[Changes] = []
    taken_at: int | None = None  # the step an undo goes back before
    for action in reversed(run):
        row: Counter[str] = Counter()
        table: Counter[str] = Counter()
        for event in action.events or ():
            kind, tiles = event.get("kind"), list(event.get("tiles", ()))
            if kind in (ev.OPENED, ev.DISCARDED):
                row.update(tiles)
            elif kind in (ev.TOOK, ev.PICKED):
                row.subtract(tiles)  # a pick's later tiles too, unnamed: it opens the turn
            elif kind == ev.TOOK_EXPOSED:
                row.subtract(EXPOSED + t for t in tiles)
            elif kind == ev.MELDED:
                for notation in tiles:
                    table.update(_notation_faces(notation))
            elif kind == ev.ADDED:
                table.update(_added_faces(tiles, melds.get(int(event.get("other", -1)), ())))
            elif kind == ev.SWAPPED:
                replacement = " ".join(tiles).split()
                table.update(replacement)
                table.subtract([f"J={replacement[0]}"] if replacement else [])
            elif kind == ev.UNDONE and taken_at is not None:
                # Back to before the take: every change since, undone.
                for earlier in steps[taken_at:]:
                    row.subtract(earlier.get(ROW, Counter()))
                    table.subtract(earlier.get(MELDS, Counter()))
            if kind in TAKING:
                taken_at = len(steps)
        steps.append({ROW: row, MELDS: table})
    return steps


def _added_faces(tiles: Sequence[str], now: Sequence[str]) -> list[str]:
    faces = _notation_faces(" ".join(tiles))
    jolys = [face for face in now if face.startswith("J=")]
    return [jolys.pop() if face == "J" and jolys else face for face in faces]
