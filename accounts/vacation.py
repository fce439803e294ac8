"""Vacation days: a balance that grows a day a week, spent a started day at a time.

Every player starts with ``STARTING_VACATION_DAYS`` and earns one day per whole week of
membership, up to ``MAX_VACATION_DAYS``.  The balance is credited lazily (whenever it is read
for a decision) from ``vacation_credited_on``, so no job has to visit every account weekly.
Weeks that pass while the balance is full are not banked: the cap is a cap, not a deferral.

A vacation starts and ends with one button; it also ends by itself when the days run out
(``end_expired_vacations``, called by the deadline sweep).  What a vacation does to clocks is
the games app's business: it listens to :data:`vacation_started` and :data:`vacation_ended`,
sent inside the same transaction as the change to the player's row.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import STARTING_VACATION_DAYS, User

MAX_VACATION_DAYS = 30
DAYS_PER_WEEK_EARNED = 1

# Sent with ``user`` and ``at`` (when the vacation began).
vacation_started = Signal()
# Sent with ``user``, ``started_at`` and ``ended_at`` (when it really ended: the moment the
# days ran out when the sweep notices that late).
vacation_ended = Signal()


class VacationError(ValueError):
    """A vacation that cannot start or end now, said for the player."""


def credited(balance: int, credited_on: date, today: date) -> tuple[int, date]:
    """The balance and the date last credited once the whole weeks up to ``today`` count."""
    weeks = max(0, (today - credited_on).days // 7)
    if not weeks:
        return balance, credited_on
    return min(MAX_VACATION_DAYS, balance + weeks * DAYS_PER_WEEK_EARNED), credited_on + timedelta(
        weeks=weeks
    )


def days_spent(started_at: datetime, ended_at: datetime) -> int:
    """Days a vacation costs: every started day counts, and a vacation costs at least one."""
    return max(1, math.ceil((ended_at - started_at) / timedelta(days=1)))


def ends_at(user: User) -> datetime | None:
    """When the current vacation ends by itself: its start plus the days in the balance."""
    if user.vacation_started_at is None:
        return None
    return user.vacation_started_at + timedelta(days=user.vacation_days)


def _credit(user: User, now: datetime) -> None:
    today = timezone.localdate(now)
    since = user.vacation_credited_on or timezone.localdate(user.date_joined)
    user.vacation_days, user.vacation_credited_on = credited(user.vacation_days, since, today)


def balance(user: User, now: datetime | None = None) -> int:
    """The player's vacation days today (credited, not saved)."""
    _credit(user, now or timezone.now())
    return user.vacation_days


def start_vacation(user: User, now: datetime | None = None) -> User:
    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.vacation_started_at is not None:
            raise VacationError(_("You are already on vacation."))
        _credit(locked, now)
        if locked.vacation_days <= 0:
            locked.save(update_fields=["vacation_days", "vacation_credited_on"])
            raise VacationError(_("You have no vacation days left: you earn one each week."))
        locked.vacation_started_at = now
        locked.save(update_fields=["vacation_days", "vacation_credited_on", "vacation_started_at"])
        vacation_started.send(sender=User, user=locked, at=now)
    return locked


def end_vacation(user: User, now: datetime | None = None) -> User:
    """End the player's vacation (now, or when its days ran out if that was earlier)."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        started = locked.vacation_started_at
        if started is None:
            raise VacationError(_("You are not on vacation."))
        _credit(locked, now)
        ended = min(now, started + timedelta(days=locked.vacation_days))
        locked.vacation_days = max(0, locked.vacation_days - days_spent(started, ended))
        locked.vacation_started_at = None
        locked.save(update_fields=["vacation_days", "vacation_credited_on", "vacation_started_at"])
        vacation_ended.send(sender=User, user=locked, started_at=started, ended_at=ended)
    return locked


def end_expired_vacations(now: datetime | None = None) -> int:
    """End every vacation whose days have run out; returns how many ended."""
    now = now or timezone.now()
    ended = 0
    for user in User.objects.filter(vacation_started_at__isnull=False):
        _credit(user, now)
        limit = ends_at(user)
        if limit is not None and limit <= now:
            try:
                end_vacation(user, now)
            except VacationError:  # ended by the player a moment ago
                continue
            ended += 1
    return ended


__all__ = [
    "MAX_VACATION_DAYS",
    "STARTING_VACATION_DAYS",
    "VacationError",
    "balance",
    "credited",
    "days_spent",
    "end_expired_vacations",
    "end_vacation",
    "ends_at",
    "start_vacation",
    "vacation_ended",
    "vacation_started",
]
