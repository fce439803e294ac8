"""The navigation's "games waiting" badge: counts and links only, never anything from a
game's state, so the same fragment may go to every socket of its player."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import astuple, dataclass

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.clocks.seat_clocks import URGENT_SHARE, seat_deadlines
from games.play.news import publish

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Waiting:
    count: int  # games in which the player owes a move
    urgent: int  # of which most of the time for the move has passed
    first_url: str  # the most urgent one, or "my games" when none waits


# The badge is on every page; reading it from the cache keeps page views off the database.
# Every change of turn clears the player's entry (publish_waiting_changed), the entry never
# outlives the moment a turn becomes urgent, and a page's socket sends a fresh badge anyway.
CACHE_SECONDS = 60


def _cache_key(user_id: int) -> str:
    return f"notifications:waiting:{user_id}"


def _compute(user) -> tuple[Waiting, float]:
    """The badge and how long it stays right (until the next turn becomes urgent)."""
    turns = seat_deadlines(user)
    games = list(dict.fromkeys(turn.game_id for turn in turns))  # most urgent first
    urgent = {turn.game_id for turn in turns if turn.urgent}
    first = reverse("games:game", args=[games[0]]) if games else reverse("games:my_games")
    now = timezone.now()
    lasts = float(CACHE_SECONDS)
    for turn in turns:
        if turn.deadline is not None and not turn.urgent:
            urgent_at = turn.turn_started + URGENT_SHARE * (turn.deadline - turn.turn_started)
            lasts = min(lasts, (urgent_at - now).total_seconds())
    return Waiting(count=len(games), urgent=len(urgent), first_url=first), lasts


def waiting_for(user, *, fresh: bool = False) -> Waiting:
    key = _cache_key(user.pk)
    if not fresh:
        try:
            cached = cache.get(key)
        except Exception:  # the cache is an optimisation: without Redis, ask the database
            log.warning("waiting-games cache unavailable", exc_info=True)
            cached = None
        if cached is not None:
            return Waiting(*cached)
    waiting, lasts = _compute(user)
    if lasts >= 1:
        try:
            cache.set(key, astuple(waiting), int(lasts))
        except Exception:
            log.warning("waiting-games cache unavailable", exc_info=True)
    return waiting


def forget_waiting(user_ids: Iterable[int]) -> None:
    try:
        cache.delete_many([_cache_key(user_id) for user_id in user_ids])
    except Exception:
        log.warning("waiting-games cache unavailable", exc_info=True)


def render_badge(user, *, oob: bool = False, fresh: bool = False) -> str:
    waiting = waiting_for(user, fresh=fresh)
    return render_to_string("notifications/badge.html", {"waiting": waiting, "oob": oob})


def badge_group(user_id: int) -> str:
    # Not accounts.sockets.user_group: every login-bound socket joins that one, and a
    # message type they have no handler for would break them.
    return f"waiting-{user_id}"


def publish_waiting_changed(user_ids: Iterable[int]) -> None:
    user_ids = set(user_ids)
    forget_waiting(user_ids)
    for user_id in user_ids:
        publish(badge_group(user_id), {"type": "waiting.changed"})
