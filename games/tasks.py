"""Celery tasks: bot turns and the sweeps that make sure no turn is ever lost.

Every task is keyed by ``(game_id, version)``: it acts only if the game is still at that
version, so a duplicate, a retry after success, or a late message does nothing.  The
database is the record of what is owed (``Game.waiting_for_bot``, ``Game.deadline``); the
beat sweeps find what a lost message or a dead worker left behind.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from games import services
from games.engine import IllegalAction, player_view
from games.engine.bots import choose_action
from games.engine.state import State
from games.engine.timeout import timeout_action
from games.models import Game

log = logging.getLogger(__name__)


def schedule_bot_move(game_id: int, version: int) -> None:
    """Queue the bot's move; tables with people get a short human-like pause first."""
    delay = settings.BOT_MOVE_DELAY_SECONDS
    if delay and not Game.objects.filter(pk=game_id, table__seats__user__isnull=False).exists():
        delay = 0  # bot-only tables run at full speed
    bot_move.apply_async((game_id, version), countdown=delay)


@shared_task(
    autoretry_for=(DatabaseError, ConnectionError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=8,
    ignore_result=True,
)
def bot_move(game_id: int, version: int) -> str:
    """Play one action for the bot that owes it at ``version``; do nothing if stale."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or game.status != Game.Status.PLAYING:
        return "stale"
    state = State.from_dict(game.state)
    bots = services.bot_seats(game.table_id)
    seat = services.next_bot_seat(state, bots)
    if seat is None:
        return "no bot owes a move"
    # The bot decides from its own view only; its randomness is fixed by the game and
    # version, so a retried task makes the same choice.
    rng = random.Random(f"{game_id}/{version}")
    action = choose_action(player_view(state, seat), bots[seat], rng)
    try:
        services.play(game_id, seat, action, version)
    except services.GameMovedOn:
        return "stale"
    except IllegalAction as refused:
        # A bot must never stall a game: fall back to the always-legal timeout move.
        log.error("bot %s chose an illegal %s in game %s: %s", bots[seat], action, game_id, refused)
        fallback = timeout_action(state, seat)
        if fallback is None:
            raise
        services.play(game_id, seat, fallback, version)
    return str(action)


@shared_task(ignore_result=True)
def sweep_bot_turns() -> int:
    """Re-queue bot turns that have waited too long (the worker died, a message was lost)."""
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_STUCK_SECONDS)
    stuck = Game.objects.filter(
        status=Game.Status.PLAYING, waiting_for_bot=True, updated_at__lt=cutoff
    ).values_list("pk", "version")
    count = 0
    for game_id, version in stuck:
        bot_move.delay(game_id, version)
        count += 1
    if count:
        log.warning("re-queued %d stuck bot turn(s)", count)
    return count


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Play the timeout move for every player whose move deadline has passed (only tables
    with a time per move have deadlines)."""
    overdue = Game.objects.filter(
        status=Game.Status.PLAYING, deadline__lt=timezone.now()
    ).values_list("pk", "version")
    played = 0
    for game_id, version in overdue:
        played += bool(play_timeout(game_id, version))
    return played


def play_timeout(game_id: int, version: int) -> str | None:
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or game.status != Game.Status.PLAYING:
        return None
    state = State.from_dict(game.state)
    seat = _owing_seat(state)
    action = timeout_action(state, seat) if seat is not None else None
    if action is None:
        return None
    try:
        services.play(game_id, seat, action, version)
    except services.GameMovedOn:
        return None
    return str(action)


def _owing_seat(state: State) -> int | None:
    if state.phase == "prelude":
        return next((s for s, ready in enumerate(state.ready) if not ready), None)
    return state.turn
