"""Telling a tournament's page sockets that something changed.

The message carries nothing: each socket renders the page's live part for its own viewer
(``tournaments.consumers``).  Results and organiser changes announce themselves after their
transaction commits; moves at a tournament's tables are heard through
``games.play.turn_events.turns_changed`` (sent after every move that changes who is to play,
game ends included), so the tables' states on the page follow the games."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.play.news import publish
from tournaments.models import Match

CHANGED = {"type": "tournament.changed"}


def group_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed_after_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: publish(group_name(tournament_id), dict(CHANGED)))


def on_turns_changed(sender: Any, game_id: int, table: Any = None, **kwargs: Any) -> None:
    """Receiver of ``turns_changed``: a move at a tournament's table.  Every move asks, so
    the question is the cheapest one: none when the move passed its table and that table was
    not seated for a match (``arranged``, set for every match's table), else by the table,
    unordered."""
    if table is not None and not table.arranged:
        return
    matches = Match.objects.filter(
        **({"table_id": table.pk} if table is not None else {"table__games__id": game_id})
    )
    # Unordered: the model's ordering would join the round and the tournament to sort.
    found = matches.order_by().values_list("tournament_id", flat=True)[:1]
    tournament_id = next(iter(found), None)
    if tournament_id is not None:
        publish(group_name(tournament_id), dict(CHANGED))
