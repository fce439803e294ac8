"""Celery tasks that send notices: each claims its notice row first (notifications.claims),
so a duplicate message, a retry after success or a second sweep sends nothing more.

Mail failures (the server refusing, a dropped connection) are retried with backoff; the
claim is released first so the retry can take it again.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import date, timedelta

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import DatabaseError
from django.db.models import Max
from django.utils import timezone

from games.clocks.seat_clocks import URGENT_SHARE, PendingTurn, seat_deadlines
from games.models import Action, Game, Seat, Table
from notifications.badge import publish_waiting_changed
from notifications.claims import claim, mark_sent, release
from notifications.emails import build_email, game_lines
from notifications.kinds import Kind
from notifications.models import Notice, Preferences
from notifications.preferences import wants_email
from notifications.zones import zone_of

log = logging.getLogger(__name__)

# SMTPException and socket errors are OSErrors; DatabaseError covers a busy database.
RETRY_ON = (smtplib.SMTPException, OSError, DatabaseError)
RETRY_OPTIONS = {
    "autoretry_for": RETRY_ON,
    "retry_backoff": 30,
    "retry_backoff_max": 30 * 60,
    "retry_jitter": True,
    "max_retries": 8,
    "ignore_result": True,
}


def _send_claimed(notice: Notice, message) -> None:
    try:
        message.send()
    except Exception:
        release(notice)
        raise
    mark_sent(notice, emailed=True)


# --- Your turn ------------------------------------------------------------------------------


@shared_task(**RETRY_OPTIONS)
def send_turn_email(game_id: int, seat: int, version: int) -> str:
    """Tell the player at ``seat`` that the move made at ``version`` made it their turn."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or seat not in game.to_act:
        return "stale"
    if Action.objects.filter(game=game, seat=seat, version__gt=version).exists():
        return "stale"  # the player has moved since: that turn is over
    player = Seat.objects.select_related("user").filter(table=game.table, position=seat).first()
    user = player.user if player else None
    if user is None or game.table.pace != Table.Pace.SLOW or not wants_email(user, Kind.TURN):
        return "not wanted"
    turn = next((t for t in seat_deadlines(user) if (t.game_id, t.seat) == (game_id, seat)), None)
    lines = game_lines([turn]) if turn else []
    if not lines:
        return "stale"
    notice = claim(kind=Kind.TURN, user=user, game=game, seat=seat, turn=f"v{version}")
    if notice is None:
        return "already sent"
    _send_claimed(notice, build_email(user, Kind.TURN, {"game": lines[0]}))
    return "sent"


# --- Time running out -------------------------------------------------------------------------


def turn_key(turn: PendingTurn) -> str:
    return "t" + turn.turn_started.isoformat()


def _users_with_urgent_slow_turns(now) -> set[int]:
    """Players who may owe an urgent move in a slow game: found from the deadline index,
    not by asking every player."""
    longest = Table.objects.filter(pace=Table.Pace.SLOW, status=Table.Status.PLAYING).aggregate(
        longest=Max("move_seconds")
    )["longest"]
    if not longest:
        return set()
    # Only deadlines within the last share of the longest time per move can be urgent.
    window = timedelta(seconds=(1 - URGENT_SHARE) * longest)
    games = Game.objects.filter(
        status=Game.Status.PLAYING,
        table__pace=Table.Pace.SLOW,
        deadline__gt=now,
        deadline__lte=now + window,
    ).values_list("table_id", "to_act")
    users: set[int] = set()
    for table_id, to_act in games:
        users.update(
            Seat.objects.filter(
                table_id=table_id, position__in=to_act or [], user__isnull=False
            ).values_list("user_id", flat=True)
        )
    return users


@shared_task(ignore_result=True)
def sweep_reminders() -> int:
    """Queue a reminder for every slow-game turn that has just become urgent."""
    now = timezone.now()
    queued = 0
    for user in get_user_model().objects.filter(pk__in=_users_with_urgent_slow_turns(now)):
        urgent = [t for t in seat_deadlines(user) if t.urgent]
        slow = set(
            Game.objects.filter(
                pk__in=[t.game_id for t in urgent], table__pace=Table.Pace.SLOW
            ).values_list("pk", flat=True)
        )
        done = set(
            Notice.objects.filter(
                kind=Kind.REMINDER, game_id__in=slow, sent_at__isnull=False
            ).values_list("game_id", "seat", "turn")
        )
        for turn in urgent:
            if turn.game_id in slow and (turn.game_id, turn.seat, turn_key(turn)) not in done:
                send_reminder.delay(user.pk, turn.game_id, turn.seat, turn_key(turn))
                queued += 1
    return queued


@shared_task(**RETRY_OPTIONS)
def send_reminder(user_id: int, game_id: int, seat: int, turn: str) -> str:
    """Once per turn: the badge turns urgent, and an email goes to a player who asked."""
    user = get_user_model().objects.filter(pk=user_id).first()
    pending = next(
        (
            t
            for t in seat_deadlines(user)
            if (t.game_id, t.seat) == (game_id, seat) and turn_key(t) == turn and t.urgent
        ),
        None,
    )
    # Moved, timed out or the game ended since the sweep (or the account is gone).
    if pending is None or user is None:
        return "stale"
    notice = claim(kind=Kind.REMINDER, user=user, game_id=game_id, seat=seat, turn=turn)
    if notice is None:
        return "already sent"
    publish_waiting_changed([user.pk])
    if not wants_email(user, Kind.REMINDER):
        mark_sent(notice, emailed=False)
        return "badge only"
    lines = game_lines([pending])
    _send_claimed(notice, build_email(user, Kind.REMINDER, {"game": lines[0]}))
    return "sent"


# --- Daily digest ---------------------------------------------------------------------------


@shared_task(ignore_result=True)
def sweep_digests() -> int:
    """Queue today's digest for every player whose chosen hour it now is, where they live."""
    now = timezone.now()
    queued = 0
    subscribers = Preferences.objects.filter(
        digest_hour__isnull=False, user__is_active=True
    ).select_related("user")
    for preferences in subscribers:
        local = now.astimezone(zone_of(preferences.user))
        if local.hour != preferences.digest_hour:
            continue
        day = local.date()
        if Notice.objects.filter(
            kind=Kind.DIGEST, user_id=preferences.user_id, day=day, sent_at__isnull=False
        ).exists():
            continue
        send_digest.delay(preferences.user_id, day.isoformat())
        queued += 1
    return queued


@shared_task(**RETRY_OPTIONS)
def send_digest(user_id: int, day: str) -> str:
    """One email listing every game waiting for the player, most urgent first."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not wants_email(user, Kind.DIGEST):
        return "not wanted"
    lines = game_lines(seat_deadlines(user))
    if not lines:
        return "nothing waiting"
    notice = claim(kind=Kind.DIGEST, user=user, day=date.fromisoformat(day))
    if notice is None:
        return "already sent"
    _send_claimed(notice, build_email(user, Kind.DIGEST, {"games": lines, "day": day}))
    return "sent"
