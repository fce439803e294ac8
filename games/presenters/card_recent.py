"""What the last turn brought to a card rummy's table, read from the stored action log: the
melds it laid, the cards it laid off and its discard, with the seat that played it.

The page marks these pieces from the server, so a reload keeps the ring game-shell.js puts on
another seat's move (the mark is the same for every viewer: the table and the pile are public
parts, rendered once; the page's script leaves a viewer's own move unringed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.models import Action
from games.presenters.turn_marks import same_turn

# The event codes both card engines write (games/engine/*_rummy/turns.py).
MELDED, LAID_OFF, DISCARDED = "melded", "laid-off", "discarded"


@dataclass(frozen=True)
class LastTurn:
    seat: int | None = None
    new_melds: frozenset[int] = frozenset()  # table indexes, from 1
    laid_off: dict[int, list[str]] = field(default_factory=dict)  # index: the cards added
    discard: str | None = None


def last_turn(actions: Sequence[Action]) -> LastTurn:
    run = same_turn(actions)
    if not run:
        return LastTurn()
    new_melds: set[int] = set()
    laid_off: dict[int, list[str]] = {}
    discard = None
    for action in reversed(run):
        for event in action.events or ():
            params = event.get("params") or {}
            if event.get("code") == MELDED:
                new_melds.add(int(params["index"]))
            elif event.get("code") == LAID_OFF:
                laid_off.setdefault(int(params["index"]), []).extend(params["cards"])
            elif event.get("code") == DISCARDED:
                discard = str(params["card"])
    return LastTurn(run[0].seat, frozenset(new_melds), laid_off, discard)


def marked_positions(row: dict[str, Any], turn: LastTurn) -> frozenset[int]:
    """Positions in a table row (from ``card_faces.table_rows``) of the cards ``turn`` put
    there: all of a new meld; of a grown one, one card per code laid off."""
    if row["index"] in turn.new_melds:
        return frozenset(range(len(row["cards"])))
    added = list(turn.laid_off.get(row["index"], ()))
    positions = set()
    for position, card in enumerate(row["cards"]):
        if card.code in added:
            added.remove(card.code)
            positions.add(position)
    return frozenset(positions)


def mark_table(rows: list[dict[str, Any]], turn: LastTurn) -> list[dict[str, Any]]:
    return [{**row, "last_turn": marked_positions(row, turn)} for row in rows]


def put_down(rows: list[dict[str, Any]]) -> int:
    """How many cards the last turn laid on the table (rows marked by ``mark_table``): Thai
    Rummy also shows them, last, among the cards its seat has displayed."""
    return sum(len(row["last_turn"]) for row in rows)
