"""Notices a player reads on their own pages ("round 2 of the club evening started: your
table"), beside the emails: one ``Notice`` row each, keyed like the emails' rows, so a
retried call tells nobody twice.  A notice is shown while its game is being played."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.models import Game
from notifications.kinds import Kind
from notifications.models import Notice

# The kinds shown on pages (the others are emails only).
PAGE_KINDS = (Kind.ROUND,)
SHOWN = 5


def record(
    *, kind: str, user: Any, game: Game, seat: int, key: str, params: dict[str, Any]
) -> Notice | None:
    """The notice for ``user`` at ``game``'s ``seat``, created once; None if it exists."""
    try:
        with transaction.atomic():
            notice, created = Notice.objects.get_or_create(
                kind=kind, game=game, seat=seat, turn=key, defaults={"user": user, "params": params}
            )
    except IntegrityError:  # a racing call created it between the get and the create
        return None
    return notice if created else None


def on_pages(user: Any, *, tournament_id: int | None = None) -> list[Notice]:
    """What ``user``'s pages show: notices of games still being played, newest first
    (only one tournament's, for its page)."""
    if user is None or not user.is_authenticated:
        return []
    notices = Notice.objects.filter(
        user=user, kind__in=PAGE_KINDS, game__status=Game.Status.PLAYING
    ).order_by("-created_at", "-pk")
    if tournament_id is not None:
        notices = notices.filter(params__tournament_id=tournament_id)
    return list(notices[:SHOWN])
