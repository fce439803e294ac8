"""Announced after commit whenever a move or a deal changes which seats owe a move.

``services`` sends :data:`turns_changed`; other apps (notifications) listen. The games app
therefore never imports them, and a failing listener never undoes or fails a saved move.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.dispatch import Signal

from games.models import Seat, Table

log = logging.getLogger(__name__)

# Arguments: game_id, version (the game's version after the change), before and after (the
# seats the engine waited for before and after it), and the game's table and its seats (with
# their users) as the move left them, so that listeners need not read them again; a listener
# must still work when they are None.
turns_changed = Signal()


def announce_turns(
    game_id: int,
    version: int,
    before: Iterable[int],
    after: Iterable[int],
    *,
    table: Table | None = None,
    seats: Iterable[Seat] | None = None,
) -> None:
    results = turns_changed.send_robust(
        sender=None,
        game_id=game_id,
        version=version,
        before=list(before),
        after=list(after),
        table=table,
        seats=None if seats is None else list(seats),
    )
    for receiver, outcome in results:
        if isinstance(outcome, Exception):
            log.error(
                "turns_changed receiver %r failed for game %s: %r", receiver, game_id, outcome
            )
