"""Celery tasks: bot turns, clocks, and the sweeps that make sure no turn is ever lost.

Every task is keyed: a bot move by ``(game_id, version)``, a clock by ``(game_id, seat,
turn)``; it acts only if that is still what the game owes, so a duplicate, a retry after
success, or a late message does nothing.  The database is the record of what is owed
(``Game.waiting_for_bot``, ``SeatClock.due_at``); the beat sweeps find what a lost message or
a dead worker left behind.  A game that cannot be played is flagged (``games.clocks.flags``) and
the sweeps leave it alone.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count, Q
from django.utils import timezone

from accounts.vacation import end_expired_vacations
from games.clocks.flags import flag_game
from games.clocks.work_queue import Timeout
from games.models import Action, Game, Table
from games.play import clock_runner, services

log = logging.getLogger(__name__)


# The pause before a bot's move, as a multiple of BOT_MOVE_DELAY_SECONDS, by table setting.
BOT_PAUSE = {Table.BotSpeed.INSTANT: 0, Table.BotSpeed.NORMAL: 1, Table.BotSpeed.SLOW: 3}


def schedule_bot_move(game_id: int, version: int) -> None:
    """Queue the bot's move, after the pause its table asks for."""
    bot_move.apply_async((game_id, version), countdown=bot_pause(game_id))


def queue_timeouts(timeouts: Iterable[Timeout]) -> None:
    """Queue the task that plays each timeout at its deadline."""
    for game_id, seat, turn, eta in timeouts:
        clock_expired.apply_async((game_id, seat, turn), eta=eta)


def bot_pause(game_id: int) -> float:
    """Seconds a bot waits before its move: the speed the owner chose at tables with people;
    bot-only tables run at full speed."""
    table = (
        Table.objects.filter(games__pk=game_id)
        .annotate(people=Count("seats", filter=Q(seats__user__isnull=False)))
        .values("bot_speed", "people")
        .first()
    )
    if not table or not table["people"]:
        return 0.0
    return settings.BOT_MOVE_DELAY_SECONDS * BOT_PAUSE.get(table["bot_speed"], 1)


@shared_task(
    autoretry_for=(DatabaseError, ConnectionError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=8,
    ignore_result=True,
)
def bot_move(game_id: int, version: int) -> str:
    """Play one action for the bot that owes it at ``version``; do nothing if stale.

    A bot must never stall a game: a choice the engine refuses for any reason falls back to
    the always-legal timeout move, and when even that fails the game is flagged."""
    game = Game.objects.select_related("table").filter(pk=game_id, version=version).first()
    if game is None or game.status != Game.Status.PLAYING or game.flagged_at:
        return "stale"
    bots = services.bot_seats(game.table_id)
    seat = services.next_bot_seat(game.to_act, bots)
    if seat is None:
        return "no bot owes a move"
    engine = services.game_of(game.table)
    action = None
    try:
        state = engine.load(game.state)
        # The bot decides from its own view only; its randomness is fixed by the game and
        # version, so a retried task makes the same choice.
        rng = random.Random(f"{game_id}/{version}")
        action = engine.choose(engine.player_view(state, seat), bots[seat], rng)
        services.play(game_id, seat, action, version, cause=Action.Cause.BOT)
        return str(action)
    except services.GameMovedOn:
        return "stale"
    except DatabaseError:
        raise
    except Exception as refused:
        log.error("bot %s in game %s chose %r, refused: %r", bots[seat], game_id, action, refused)
    try:
        fallback = engine.timeout_action(engine.load(game.state), seat)
        if fallback is None:
            raise ValueError(f"no timeout move for seat {seat}")
        services.play(game_id, seat, fallback, version, cause=Action.Cause.BOT)
    except services.GameMovedOn:
        return "stale"
    except DatabaseError:
        raise
    except Exception as error:
        flag_game(game_id, f"bot seat {seat}: neither its choice nor the timeout move: {error!r}")
        return "flagged"
    return str(fallback)


@shared_task(ignore_result=True)
def sweep_bot_turns() -> int:
    """Re-queue bot turns that have waited too long (the worker died, a message was lost)."""
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_STUCK_SECONDS)
    stuck = Game.objects.filter(
        status=Game.Status.PLAYING,
        waiting_for_bot=True,
        updated_at__lt=cutoff,
        flagged_at__isnull=True,
    ).values_list("pk", "version")
    count = 0
    for game_id, version in stuck:
        bot_move.delay(game_id, version)
        count += 1
    if count:
        log.warning("re-queued %d stuck bot turn(s)", count)
    return count


@shared_task(
    autoretry_for=(DatabaseError, ConnectionError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
    ignore_result=True,
)
def clock_expired(game_id: int, seat: int, turn: int) -> str:
    """Queued for the deadline of ``seat``'s turn ``turn``: play for the seat if its time is
    up and nobody has yet.  Early (the deadline moved: a vacation), late or duplicate
    deliveries find nothing to claim and do nothing."""
    now = timezone.now()
    claimed = clock_runner.claim_one(game_id, seat, turn, now)
    if claimed is None:
        return "nothing due"
    return clock_runner.run_safely(claimed, now)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """The safety net under the on-time tasks: play every clock whose time is up (one claim
    at a time, so several sweeps share the work), queue the on-time tasks of clocks that
    fall due soon, and end vacations whose days ran out.  Returns how many turns the clock
    played.  A failing game is logged, backed off and skipped."""
    now = timezone.now()
    try:
        end_expired_vacations(now)
    except Exception:  # never let the vacations stop the clocks
        log.exception("could not end the expired vacations")
    played = 0
    for _ in range(settings.DEADLINE_SWEEP_BATCH):
        claimed = clock_runner.claim_next(now)
        if claimed is None:
            break
        played += clock_runner.run_safely(claimed, now) in ("played", "handed over")
    try:
        clock_runner.queue_soon_due(now)
    except Exception:
        log.exception("could not queue the clocks due soon")
    return played
