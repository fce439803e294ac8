"""Claiming a notice before sending it, so that it goes out once.

A claim is a conditional update on the notice's row: only one worker at a time gets it, and
none once it is sent. A failed send releases the claim for the retry. The one gap left is a
worker killed between the mail server accepting the message and the row being marked; after
the lease another worker sends again, which beats never sending at all.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from notifications.models import Notice

LEASE = timedelta(minutes=10)


def claim(**key) -> Notice | None:
    """The notice row for ``key``, now held by this worker; None if it was already sent or
    another worker holds it."""
    try:
        with transaction.atomic():
            notice, _ = Notice.objects.get_or_create(**key)
    except IntegrityError:  # created by a racing worker between the get and the create
        notice = Notice.objects.get(**key)
    now = timezone.now()
    taken = (
        Notice.objects.filter(pk=notice.pk, sent_at__isnull=True)
        .filter(Q(sending_since__isnull=True) | Q(sending_since__lt=now - LEASE))
        .update(sending_since=now)
    )
    return notice if taken else None


def mark_sent(notice: Notice, *, emailed: bool) -> None:
    Notice.objects.filter(pk=notice.pk).update(sent_at=timezone.now(), emailed=emailed)


def release(notice: Notice) -> None:
    Notice.objects.filter(pk=notice.pk, sent_at__isnull=True).update(sending_since=None)
