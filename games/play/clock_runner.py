"""Playing for a seat whose time ran out, exactly once per turn.

Two roads lead here: the on-time task queued for the deadline (``tasks.clock_expired``) and
the beat sweep that finds what a lost task or a dead worker left (``tasks.sweep_deadlines``).
Either first *claims* the clock with a conditional update keyed by the clock's identity
``(game, seat, turn)`` and the ``due_at`` it saw: the update moves ``due_at`` a lease ahead,
so two workers (or a task and the sweep) never act on the same clock, and a worker that dies
holding a claim only delays the clock by the lease.  A player's move that lands before the
claim ends the turn, and the claim finds nothing; one that lands after it races the clock's
own move on the game's version in ``services.play``, where exactly one wins.

What is played comes from the engine alone: under the table's ``AUTOPLAY`` the seat's bot
chooses from the seat's ``player_view``, falling back to ``timeout_action``; under ``MOVE``
the ``timeout_action``.  A turn of several actions is played to its end.  When nothing can be
played the game is flagged for the admin (``games.clocks.flags``).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F

from games.clocks import seat_clocks, work_queue
from games.clocks.flags import flag_game
from games.models import Action, Game, Seat, SeatClock, Table
from games.play import services

log = logging.getLogger(__name__)

# More actions than any turn takes: a turn the clock cannot finish is a bug, not a loop.
MAX_ACTIONS_PER_TURN = 60
# A clock that failed this often (database trouble, not the engine) is flagged.
MAX_ATTEMPTS = 6


@dataclass(frozen=True)
class Claim:
    game_id: int
    seat: int
    turn: int


def lease() -> timedelta:
    return timedelta(seconds=settings.CLOCK_LEASE_SECONDS)


def backoff(attempts: int) -> timedelta:
    """How long a clock that failed waits before the next try: doubling, up to an hour."""
    return timedelta(seconds=min(3600, settings.CLOCK_LEASE_SECONDS * 2 ** max(0, attempts - 1)))


def due_clocks(now: datetime) -> Any:
    """The clocks whose time is up, oldest deadline first (the partial index's query)."""
    return SeatClock.objects.filter(
        seat_clocks.live_clock_filter(), due_at__lte=now, game__flagged_at__isnull=True
    ).order_by("due_at")


def claim(game_id: int, seat: int, turn: int, due_at: datetime, now: datetime) -> bool:
    """Take the clock ``(game, seat, turn)`` if it is still due as it was seen."""
    return (
        SeatClock.objects.filter(
            game_id=game_id,
            seat=seat,
            turn=turn,
            due_at=due_at,
            due_at__lte=now,
            ended_at__isnull=True,
        ).update(claimed_at=now, due_at=now + lease(), attempts=F("attempts") + 1)
        == 1
    )


def claim_next(now: datetime) -> Claim | None:
    """Claim the most overdue clock, or None when none is due.

    On PostgreSQL the row is read ``FOR UPDATE SKIP LOCKED``, so concurrent sweeps pass
    each other instead of queueing on one row; the conditional update is what guarantees a
    single owner on every database (SQLite has no row locks)."""
    skip_locked = connection.features.has_select_for_update_skip_locked
    for _ in range(20):  # a lost race only means: try the next one
        with transaction.atomic():
            rows = due_clocks(now)
            if skip_locked:
                rows = rows.select_for_update(skip_locked=True, of=("self",))
            row = rows.values_list("game_id", "seat", "turn", "due_at").first()
            if row is None:
                return None
            game_id, seat, turn, due_at = row
            if claim(game_id, seat, turn, due_at, now):
                return Claim(game_id, seat, turn)
    return None


def claim_one(game_id: int, seat: int, turn: int, now: datetime) -> Claim | None:
    """Claim a given clock (the on-time task's), if it is due."""
    due_at = (
        SeatClock.objects.filter(
            game_id=game_id,
            seat=seat,
            turn=turn,
            ended_at__isnull=True,
            due_at__lte=now,
            game__flagged_at__isnull=True,
        )
        .values_list("due_at", flat=True)
        .first()
    )
    if due_at is None or not claim(game_id, seat, turn, due_at, now):
        return None
    return Claim(game_id, seat, turn)


def back_off(claimed: Claim, now: datetime) -> None:
    """A try that failed for a reason that may pass (the database): try again later."""
    clock = SeatClock.objects.filter(
        game_id=claimed.game_id, seat=claimed.seat, turn=claimed.turn, ended_at__isnull=True
    ).first()
    if clock is None:
        return
    if clock.attempts >= MAX_ATTEMPTS:
        flag_game(
            claimed.game_id, f"the clock of seat {claimed.seat} failed {clock.attempts} times"
        )
        return
    SeatClock.objects.filter(pk=clock.pk).update(due_at=now + backoff(clock.attempts))


def _release(claimed: Claim, *, due_at: datetime | None) -> None:
    SeatClock.objects.filter(
        game_id=claimed.game_id, seat=claimed.seat, turn=claimed.turn, ended_at__isnull=True
    ).update(due_at=due_at, claimed_at=None)


def _live(claimed: Claim) -> bool:
    return SeatClock.objects.filter(
        game_id=claimed.game_id, seat=claimed.seat, turn=claimed.turn, ended_at__isnull=True
    ).exists()


class CannotPlay(Exception):
    """Nothing the engine offers could be played for the seat."""


def _play_for_seat(game: Game, seat: int, autoplay: bool) -> str:
    """One action for ``seat`` by the clock; returns its notation.  Raises GameMovedOn when
    another move landed first, CannotPlay when neither choice can be played."""
    engine = services.game_of(game.table)
    try:
        state = engine.load(game.state)
    except Exception as error:
        raise CannotPlay(f"the engine cannot load the state: {error!r}") from error
    cause = Action.Cause.AUTOPLAY if autoplay else Action.Cause.TIMEOUT
    choice = None
    prelude = engine.traits.prelude_phase
    if autoplay and not (prelude and engine.ctx(state).phase == prelude):
        try:
            # The bot sees what the player would see, nothing more; its randomness is fixed
            # by the game, version and seat, so a retried claim makes the same choice.
            rng = random.Random(f"{game.pk}/{game.version}/{seat}/clock")
            choice = engine.choose(
                engine.player_view(state, seat), seat_clocks.autoplay_level(engine), rng
            )
            services.play(game.pk, seat, choice, game.version, cause=cause)
            return str(choice)
        except services.GameMovedOn:
            raise
        except (ValueError, TypeError, LookupError, AttributeError) as refused:
            # Any refusal (a Refusal, NotYourTurn, a malformed choice) or a bot that broke:
            # the timeout move is always legal.
            log.warning(
                "autoplay in game %s seat %s chose %r, refused: %s", game.pk, seat, choice, refused
            )
    try:
        fallback = engine.timeout_action(state, seat)
    except Exception as error:
        raise CannotPlay(f"the engine has no timeout move: {error!r}") from error
    if fallback is None:
        raise CannotPlay(f"the engine offers no timeout move for seat {seat}")
    try:
        services.play(game.pk, seat, fallback, game.version, cause=cause)
    except (services.GameMovedOn, DatabaseError):
        raise
    except Exception as error:
        raise CannotPlay(f"the timeout move {fallback} was refused: {error!r}") from error
    return str(fallback)


def run(claimed: Claim) -> str:
    """Play the rest of the claimed turn for its seat.  Returns what happened, for logs and
    tests: "played", "moved on" (the player's move ended the turn first), "handed over"
    (a bot plays the seat now), "flagged"."""
    played = False
    for _ in range(MAX_ACTIONS_PER_TURN):
        game = Game.objects.select_related("table").filter(pk=claimed.game_id).first()
        if game is None or game.flagged_at:
            return "moved on"
        if game.status != Game.Status.PLAYING or not _live(claimed):
            # Either the clock finished the turn, or the player's move landed first.
            return "played" if played else "moved on"
        seat = Seat.objects.filter(table_id=game.table_id, position=claimed.seat).first()
        if seat is None or seat.bot:
            # A bot's own task plays its turns; this clock has nothing more to do.
            _release(claimed, due_at=None)
            return "handed over"
        autoplay = game.table.on_timeout == Table.OnTimeout.AUTOPLAY
        try:
            _play_for_seat(game, claimed.seat, autoplay)
            played = True
        except services.GameMovedOn:
            continue  # look again: the turn may be over, or go on from the new version
        except CannotPlay as error:
            flag_game(game.pk, f"seat {claimed.seat}: {error}")
            return "flagged"
    if _live(claimed):
        flag_game(claimed.game_id, f"the clock could not finish seat {claimed.seat}'s turn")
        return "flagged"
    return "played" if played else "moved on"


def run_safely(claimed: Claim, now: datetime) -> str:
    """``run``, with a failure logged and backed off instead of raised (a sweep goes on to
    the next clock)."""
    try:
        return run(claimed)
    except Exception:
        log.exception(
            "the clock of game %s seat %s turn %s failed; backing off",
            claimed.game_id,
            claimed.seat,
            claimed.turn,
        )
        try:
            back_off(claimed, now)
        except Exception:  # the lease brings the clock back anyway
            log.exception("could not back off game %s", claimed.game_id)
        return "failed"


def queue_soon_due(now: datetime) -> int:
    """Queue the on-time task of each clock that falls due within the horizon and has none
    queued for its current deadline (long correspondence deadlines wait here until then)."""
    soon = SeatClock.objects.filter(
        seat_clocks.live_clock_filter(),
        due_at__gt=now,
        due_at__lte=now + seat_clocks.eta_horizon(),
        game__flagged_at__isnull=True,
    ).exclude(eta_at=F("due_at"))
    rows = list(soon.values_list("pk", "game_id", "seat", "turn", "due_at")[:5000])
    queued: list[tuple[int, int, int, datetime]] = []
    for pk, game_id, seat, turn, due_at in rows:
        if due_at is None:  # the query asked for a due time: for the type checker
            continue
        if SeatClock.objects.filter(pk=pk, due_at=due_at).update(eta_at=due_at):
            queued.append((game_id, seat, turn, due_at))
    work_queue.queue_timeouts(queued)
    return len(queued)
