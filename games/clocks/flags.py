"""Games the machines gave up on: flagged for an admin, skipped by every sweep.

A game is flagged when nothing can be played for the seat that owes a move: neither a bot's
choice nor the engine's always-legal timeout move (the stored state does not load, the
engine raises).  Retrying such a game every sweep would only fill the logs, so the flag
stops the clocks and the bot sweep; clearing it (the admin's action) starts them again.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from games.models import Game, SeatClock

log = logging.getLogger(__name__)

REASON_LENGTH = 2000


def flag_game(game_id: int, reason: str) -> None:
    reason = reason[:REASON_LENGTH] or "unknown failure"
    log.error("game %s flagged for the admin: %s", game_id, reason)
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(flagged_reason=reason, flagged_at=timezone.now())
        SeatClock.objects.filter(game_id=game_id, ended_at__isnull=True).update(
            due_at=None, eta_at=None, claimed_at=None
        )


def clear_flag(game_id: int) -> None:
    """Let the sweeps try the game again: running clocks become due at their deadlines."""
    with transaction.atomic():
        Game.objects.filter(pk=game_id).update(flagged_reason="", flagged_at=None)
        for clock in SeatClock.objects.filter(
            game_id=game_id, ended_at__isnull=True, paused_at__isnull=True
        ):
            clock.due_at = clock.deadline
            clock.attempts = 0
            clock.save(update_fields=["due_at", "attempts"])
