"""What a change of turn sets off: the badge of every player whose count changed, and the
"your turn" email for each player the move made owe one in a slow game."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from games.models import Seat, Table
from games.play.turn_events import turns_changed
from notifications.badge import publish_waiting_changed, waiting_for

log = logging.getLogger(__name__)


@receiver(turns_changed)
def on_turns_changed(
    sender: Any,
    game_id: int,
    version: int,
    before: list[int],
    after: list[int],
    table: Table | None = None,
    seats: list[Seat] | None = None,
    **kwargs: Any,
) -> None:
    changed = set(before) ^ set(after)
    if not changed:
        return
    people = _people_at(game_id, changed, table, seats)
    publish_waiting_changed(user_id for _, user_id, _, _ in people)
    newly_owed = set(after) - set(before)
    for position, _, pace, wants_email in people:
        if position in newly_owed and pace == Table.Pace.SLOW and wants_email:
            _queue_turn_email(game_id, position, version)


def _people_at(
    game_id: int, positions: set[int], table: Table | None, seats: list[Seat] | None
) -> list[tuple[int, int, str, bool]]:
    """(position, user id, the table's pace, whether they want turn emails) for the people
    (not bots) at ``positions``: from the move's own seats when it passed them, else read."""
    if table is None or seats is None:
        return list(
            Seat.objects.filter(
                table__games__pk=game_id, position__in=positions, user__isnull=False
            ).values_list("position", "user_id", "table__pace", "user__email_on_turn")
        )
    return [
        (s.position, s.user.pk, table.pace, s.user.email_on_turn)
        for s in seats
        if s.position in positions and s.user is not None
    ]


def _queue_turn_email(game_id: int, seat: int, version: int) -> None:
    from notifications.tasks import send_turn_email  # Celery only where it is needed

    try:
        send_turn_email.delay(game_id, seat, version)
    except Exception:  # a broker that is down must not fail the move; the email is lost
        log.exception("could not queue the turn email for game %s seat %s", game_id, seat)


@receiver(user_logged_in)
def count_waiting_games_at_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # The first page after logging in shows the badge: count once here, from the database,
    # and the pages that follow read the cache.
    waiting_for(user, fresh=True)
