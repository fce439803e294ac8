"""Per-seat clocks: when each seat's turn began and when its time runs out.

A clock is a :class:`~games.models.SeatClock` row per ``(game, seat, turn)``.  They are
written by ``services.play`` (and the deal) in the same transaction as the move, from the
engine's answer alone (``to_act`` and the turn number in its ``ctx``), so every game of the
registry gets the same clocks.  The rules:

* A turn's clock runs from the start of the seat's turn.  The actions of one turn (draw,
  melds, undo, discard) never give time back: the row, and so the deadline, stays.
* Each seat that owes an action has its own clock: in a phase where several seats act at
  once, each has its own deadline and its own timeout.
* Correspondence tables may stop the clock on weekends: the hours of Saturday and Sunday in
  the player's own time zone do not count, so a deadline moves past the weekend.
* A player on vacation has every correspondence clock stopped (tables that forbid vacation
  aside); when they come back each deadline moves on by the clock time that was left.

``seat_deadlines(user)`` is what other apps (notifications) read: the user's pending turns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.clocks import work_queue
from games.engine import GameEngine
from games.models import Game, Seat, SeatClock, Table

# A turn is urgent once this share of its time has gone (the reminder's moment).
URGENT_SHARE = 0.8
SATURDAY = 5


# --- Clock time, with or without weekends ---------------------------------------------------


def _midnight(day: Any, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), tzinfo=zone).astimezone(UTC)


def _stretch(at: datetime, zone: ZoneInfo) -> tuple[bool, datetime]:
    """Whether ``at`` falls on the player's weekend, and when that stretch (weekdays or
    weekend) ends.  Boundaries are local midnights, so a DST change inside is handled."""
    local = at.astimezone(zone)
    day = local.date()
    weekday = local.weekday()
    if weekday >= SATURDAY:
        return True, _midnight(day + timedelta(days=7 - weekday), zone)
    return False, _midnight(day + timedelta(days=SATURDAY - weekday), zone)


def deadline_after(
    start: datetime, seconds: float, zone: ZoneInfo, *, weekends_off: bool
) -> datetime:
    """When ``seconds`` of clock time starting at ``start`` have run."""
    # Arithmetic in UTC: Python subtracts two datetimes of the same zone by wall clock.
    at = start.astimezone(UTC)
    left = timedelta(seconds=seconds)
    if not weekends_off:
        return at + left
    while True:
        weekend, until = _stretch(at, zone)
        if not weekend:
            if at + left <= until:
                return at + left
            left -= until - at
        at = until


def clock_time_between(
    start: datetime, end: datetime, zone: ZoneInfo, *, weekends_off: bool
) -> timedelta:
    """The clock time that runs from ``start`` to ``end`` (weekends not counted if off)."""
    at, end = start.astimezone(UTC), end.astimezone(UTC)
    if end <= at:
        return timedelta(0)
    if not weekends_off:
        return end - at
    total = timedelta(0)
    while at < end:
        weekend, until = _stretch(at, zone)
        until = min(until, end)
        if not weekend:
            total += until - at
        at = until
    return total


# --- What a table's options mean for one seat ---------------------------------------------


def _zone(seat: Seat) -> ZoneInfo:
    return seat.user.zone if seat.user is not None else ZoneInfo(settings.TIME_ZONE)


def weekends_off(table: Table) -> bool:
    return table.pace == Table.Pace.SLOW and table.weekends_off


def vacation_stops_clock(table: Table) -> bool:
    return table.pace == Table.Pace.SLOW and table.vacation_allowed


def allowance(table: Table, seat: Seat) -> int:
    """Seconds a person has for a turn; 0 when there is no clock (untimed table, a bot)."""
    if table.move_seconds <= 0 or seat.bot:
        return 0
    return table.move_seconds


def eta_horizon() -> timedelta:
    """How far ahead an on-time task may be queued.  Redis hands an unacknowledged message
    (and an eta task waits unacknowledged) to another worker after its visibility timeout
    (an hour), so longer deadlines are queued later, by the sweep."""
    return timedelta(seconds=settings.CLOCK_ETA_HORIZON_SECONDS)


@dataclass
class ClockPlan:
    """What a move did to the clocks: the game's earliest deadline (shown in lists) and the
    on-time tasks to queue once the transaction commits."""

    deadline: datetime | None = None
    on_time: list[tuple[int, int, int, datetime]] = field(default_factory=list)


def _start_clock(
    game: Game, table: Table, seat: Seat, version: int, ctx: Any, shared: bool, now: datetime
) -> SeatClock:
    seconds = allowance(table, seat)
    clock = SeatClock(
        game=game,
        seat=seat.position,
        turn=version,
        player_seat=seat,
        turn_number=ctx.turn_number,
        phase=ctx.phase,
        shared=shared,
        started_at=now,
        allowance=seconds,
    )
    _set_deadline(clock, table, seat, now, now)
    return clock


def _set_deadline(
    clock: SeatClock, table: Table, seat: Seat, start: datetime, now: datetime
) -> None:
    """Give ``clock`` its deadline counted from ``start`` (stopped if the player is away)."""
    clock.deadline = clock.due_at = clock.eta_at = clock.paused_at = None
    if not clock.allowance:
        return
    clock.deadline = deadline_after(
        start, clock.allowance, _zone(seat), weekends_off=weekends_off(table)
    )
    if seat.user is not None and seat.user.on_vacation and vacation_stops_clock(table):
        clock.paused_at = now
        return
    clock.due_at = clock.deadline
    if clock.due_at <= now + eta_horizon():
        clock.eta_at = clock.due_at


def _brief(clock: SeatClock) -> dict[str, Any]:
    return {
        "turn": clock.turn,
        "turn_number": clock.turn_number,
        "phase": clock.phase,
        "shared": clock.shared,
        "started": clock.started_at.isoformat(),
        "deadline": clock.deadline.isoformat() if clock.deadline else None,
        "paused": clock.paused_at is not None,
    }


def _earliest(briefs: Mapping[str, Mapping[str, Any]]) -> datetime | None:
    running = [
        datetime.fromisoformat(b["deadline"])
        for b in briefs.values()
        if b["deadline"] and not b["paused"]
    ]
    return min(running, default=None)


def sync_clocks(
    game: Game,
    engine: GameEngine,
    state: Any,
    version: int,
    seats: Mapping[int, Seat],
    now: datetime,
) -> ClockPlan:
    """End the clocks of turns that are over and start one for each seat whose turn begins;
    sets ``game.seat_clocks`` and ``game.deadline`` (the caller saves the game).

    A seat's turn goes on while it stays in ``to_act`` under the same engine turn number;
    a turn that began while several seats acted at once (a prelude) also ends with that
    phase, so the last seat to get ready does not carry its prelude clock into its first
    real turn.  Which turns are live comes from ``game.seat_clocks`` (written under the
    game's row lock with every move), so a move in the middle of a turn costs no query."""
    ctx = engine.ctx(state)
    to_act = set(ctx.to_act)
    live = dict(game.seat_clocks or {})
    ending = [
        seat
        for seat, b in live.items()
        if int(seat) not in to_act
        or b["turn_number"] != ctx.turn_number
        or (b["shared"] and b["phase"] != ctx.phase)
    ]
    if ending:
        SeatClock.objects.filter(
            game=game, seat__in=[int(s) for s in ending], ended_at__isnull=True
        ).update(ended_at=now)
        for seat in ending:
            del live[seat]
    shared = len(to_act) > 1
    started = [
        _start_clock(game, game.table, seats[seat], version, ctx, shared, now)
        for seat in sorted(to_act - {int(s) for s in live})
    ]
    if started:
        SeatClock.objects.bulk_create(started)
        live.update({str(c.seat): _brief(c) for c in started})
    game.seat_clocks = live
    game.deadline = _earliest(live)
    return ClockPlan(
        deadline=game.deadline,
        on_time=[(game.pk, c.seat, c.turn, c.eta_at) for c in started if c.eta_at],
    )


def end_clocks(game_id: int, now: datetime) -> None:
    SeatClock.objects.filter(game_id=game_id, ended_at__isnull=True).update(ended_at=now)


def refresh_game_deadlines(game_ids: Iterable[int]) -> None:
    """Rewrite ``Game.seat_clocks`` and ``Game.deadline`` (the earliest running deadline,
    for lists of games) from the clock rows, after a change outside a move (a vacation, a
    seat handed over or taken back)."""
    for game_id in sorted(set(game_ids)):
        with transaction.atomic():
            # The game's lock orders this after any move being saved.
            Game.objects.select_for_update().filter(pk=game_id).first()
            briefs = {
                str(c.seat): _brief(c)
                for c in SeatClock.objects.filter(game_id=game_id, ended_at__isnull=True)
            }
            Game.objects.filter(pk=game_id).update(seat_clocks=briefs, deadline=_earliest(briefs))


# --- Timeouts counted, seats handed over and taken back -------------------------------------


def autoplay_level(engine: GameEngine) -> str:
    """The bot that plays for a player whose time ran out: the game's middle level."""
    levels = engine.bot_levels
    return "normal" if "normal" in levels else levels[len(levels) // 2]


def count_timeout(game: Game, seat: Seat, engine: GameEngine, now: datetime) -> bool:
    """Count a turn the clock played on ``seat`` (once per turn, however many actions the
    turn takes) and hand the seat to a bot after the table's number in a row.  Returns True
    when this timeout handed the seat over."""
    first = SeatClock.objects.filter(
        game=game, seat=seat.position, ended_at__isnull=True, timed_out=False
    ).update(timed_out=True)
    if not first:
        return False
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=F("timeouts_in_row") + 1)
    seat.refresh_from_db(fields=["timeouts_in_row"])
    limit = game.table.handover_after
    if not limit or seat.timeouts_in_row < limit or seat.bot or not seat.user_id:
        return False
    seat.bot = autoplay_level(engine)
    seat.abandoned_at = now
    seat.save(update_fields=["bot", "abandoned_at"])
    # The bot needs no clock; its own task plays the rest of the turn.
    SeatClock.objects.filter(game=game, seat=seat.position, ended_at__isnull=True).update(
        deadline=None, due_at=None, eta_at=None
    )
    brief = (game.seat_clocks or {}).get(str(seat.position))
    if brief:
        brief["deadline"] = None
    return True


def player_moved(seat: Seat) -> None:
    """A move by the player themself: their run of timeouts is over."""
    if seat.timeouts_in_row:
        Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=0)
        seat.timeouts_in_row = 0


def restart_seat_clock(game: Game, seat: Seat, now: datetime) -> ClockPlan:
    """A person takes a seat back mid-turn: the turn's row is theirs now, with a whole
    turn's time from now (the bot had no clock)."""
    plan = ClockPlan()
    clock = SeatClock.objects.filter(game=game, seat=seat.position, ended_at__isnull=True).first()
    if clock is None:
        return plan
    clock.allowance = allowance(game.table, seat)
    clock.started_at = now
    clock.claimed_at = None
    clock.attempts = 0
    _set_deadline(clock, game.table, seat, now, now)
    clock.save()
    if clock.eta_at:
        plan.on_time.append((game.pk, clock.seat, clock.turn, clock.eta_at))
    return plan


# --- Vacations (receivers of accounts.vacation's signals) ---------------------------------


def _users_live_clocks(user: Any) -> Any:
    return SeatClock.objects.filter(
        ended_at__isnull=True,
        player_seat__user=user,
        player_seat__bot="",
        game__table__pace=Table.Pace.SLOW,
        game__table__vacation_allowed=True,
        game__status=Game.Status.PLAYING,
    )


def pause_for_vacation(sender: Any, user: Any, at: datetime, **kwargs: Any) -> None:
    """Stop the player's correspondence clocks: no timeout fires while they are away."""
    clocks = _users_live_clocks(user).filter(paused_at__isnull=True, deadline__isnull=False)
    game_ids = list(clocks.values_list("game_id", flat=True))
    clocks.update(paused_at=at, due_at=None, eta_at=None)
    refresh_game_deadlines(game_ids)


def resume_after_vacation(
    sender: Any, user: Any, started_at: datetime, ended_at: datetime, **kwargs: Any
) -> None:
    """Start the clocks again: each deadline moves on by the clock time left when it
    stopped, counted from the end of the vacation."""
    now = timezone.now()
    on_time = []
    game_ids = []
    for clock in (
        _users_live_clocks(user).filter(paused_at__isnull=False).select_related("game__table")
    ):
        off = weekends_off(clock.game.table)
        zone = user.zone
        left = clock_time_between(clock.paused_at, clock.deadline, zone, weekends_off=off)
        start = max(ended_at, clock.paused_at)
        clock.deadline = deadline_after(start, left.total_seconds(), zone, weekends_off=off)
        clock.due_at = clock.deadline
        clock.paused_at = None
        clock.eta_at = clock.due_at if clock.due_at <= now + eta_horizon() else None
        clock.save(update_fields=["deadline", "due_at", "paused_at", "eta_at"])
        game_ids.append(clock.game_id)
        if clock.eta_at:
            on_time.append((clock.game_id, clock.seat, clock.turn, clock.eta_at))
    refresh_game_deadlines(game_ids)
    if on_time:
        transaction.on_commit(lambda: work_queue.queue_timeouts(on_time))


# --- For other apps: a player's pending turns ------------------------------------------------


@dataclass(frozen=True)
class SeatDeadline:
    """One turn a player owes in an active game (see :func:`seat_deadlines`)."""

    game_id: int
    seat: int
    turn: int  # with game_id and seat, the SeatClock's identity: key "once per turn" on it
    turn_started: datetime
    deadline: datetime | None  # None: no clock at this table, or stopped (vacation)
    urgent: bool  # at least URGENT_SHARE of the turn's time has gone
    paused: bool  # the clock is stopped while the player is on vacation


# The name the notifications app reads pending turns by.
PendingTurn = SeatDeadline


def is_urgent(started: datetime, deadline: datetime | None, now: datetime) -> bool:
    if deadline is None:
        return False
    return now - started >= (deadline - started) * URGENT_SHARE


def seat_deadlines(user: Any, now: datetime | None = None) -> list[SeatDeadline]:
    """The turns ``user`` owes in games being played, most urgent first: the earliest
    deadline first, then turns without a clock (oldest turn first).  A seat a bot plays
    for them (handed over after timeouts) owes nothing."""
    now = now or timezone.now()
    clocks = SeatClock.objects.filter(
        ended_at__isnull=True,
        player_seat__user=user,
        player_seat__bot="",
        game__status=Game.Status.PLAYING,
    ).only("game_id", "seat", "turn", "started_at", "deadline", "paused_at")
    items = []
    for clock in clocks:
        paused = clock.paused_at is not None
        deadline = None if paused else clock.deadline
        items.append(
            SeatDeadline(
                game_id=clock.game_id,
                seat=clock.seat,
                turn=clock.turn,
                turn_started=clock.started_at,
                deadline=deadline,
                urgent=is_urgent(clock.started_at, deadline, now),
                paused=paused,
            )
        )
    far = datetime.max.replace(tzinfo=UTC)
    items.sort(key=lambda d: (d.deadline or far, d.turn_started, d.game_id))
    return items


def live_clock_filter() -> Q:
    """The rows the sweep's partial index holds."""
    return Q(ended_at__isnull=True, due_at__isnull=False)
