"""What changed last, for the marks on the Remi page: the tiles the viewer took this turn,
and the melds the previous player laid or changed.  Read from the stored action log; a drawn
tile (an event's secret) counts only for the seat that drew it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.remi import events as ev
from games.models import Action

TAKING = (ev.TOOK, ev.TOOK_EXPOSED)
CHANGING_A_MELD = (ev.ADDED, ev.SWAPPED)


def _same_turn(actions: Sequence[Action]) -> list[Action]:
    """The newest actions made by one seat in a row, newest first."""
    run: list[Action] = []
    for action in reversed(actions):
        if action.seat is None or (run and action.seat != run[0].seat):
            break
        run.append(action)
    return run


def taken_this_turn(actions: Sequence[Action], seat: int | None) -> list[str]:
    """The tiles ``seat`` drew or took in the turn it is playing (none for a spectator)."""
    run = _same_turn(actions)
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
    run = _same_turn(actions)
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
