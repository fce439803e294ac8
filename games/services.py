"""The one path every move takes: load, check, engine, save, then tell everyone.

Views, WebSocket consumers, bot tasks and deadline sweeps all call :func:`play`.  A move is
applied only if the game is still at the version the player was looking at; the save is a
conditional update, so two racing requests cannot both apply, on SQLite or PostgreSQL.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clocks, deals, work_queue
from games.engine import GameEngine, UnknownGame, get_game
from games.engine.core.series import Series, start_series
from games.models import (
    Action,
    Game,
    Seat,
    SeatClock,
    Table,
    default_game_type,
    new_series_seed,
)
from games.signals import game_finished
from games.turn_events import announce_turns
from remi_site import json_logs, metrics

log = logging.getLogger(__name__)


class GameMovedOn(Exception):
    """The action was made against an older version of the game."""

    def __init__(self, current_version: int) -> None:
        super().__init__("The game has moved on: here is the current position.")
        self.current_version = current_version


@dataclass(frozen=True)
class Played:
    game: Game
    events: list[Any]  # the game's own event objects
    # As the move left them, for the pages drawn straight after it (games.live_views).
    seats: list[Seat]
    state: Any
    action: Action  # the move's row of the log, as stored


def game_of(table: Table) -> GameEngine:
    """The registered game a table plays (UnknownGame, a ValueError, for a key no longer
    registered)."""
    return get_game(table.game_type)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


LOBBY_GROUP = "lobby"


def play(
    game_id: int,
    seat: int,
    action: Any,
    expected_version: int,
    *,
    cause: str = Action.Cause.PLAYER,
    answered_tab: str = "",
    before_news: Callable[[Played], None] | None = None,
) -> Played:
    """Apply ``action`` (the game's action or its notation) for ``seat`` if the game is still
    at ``expected_version``.  ``cause`` says who made it: the player (the default), a bot
    seat, or the clock (``Action.Cause.TIMEOUT`` / ``AUTOPLAY``), which the log tells everyone
    and the seat's count of timeouts in a row records.  ``answered_tab`` names the page
    (``games.page_tabs``) that is answered with the new position, so its socket skips it.
    ``before_news`` is called with the move once it is committed, before anyone is told of it
    (the act view keeps the position for its own process's sockets there).

    Raises GameMovedOn for a stale version, the engine's InvalidAction / IllegalAction /
    NotYourTurn for a refused move, SeatHandedOver for a player's move on a seat a bot now
    plays, and Game.DoesNotExist for an unknown game.  A refused or stale action changes
    nothing.  The seats' clocks are updated in the same transaction as the move.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        return play_locked(
            game,
            table_seats(game.table_id),
            seat,
            action,
            expected_version,
            cause=cause,
            answered_tab=answered_tab,
            before_news=before_news,
        )


def play_locked(
    game: Game,
    seats: dict[int, Seat],
    seat: int,
    action: Any,
    expected_version: int,
    *,
    cause: str = Action.Cause.PLAYER,
    answered_tab: str = "",
    before_news: Callable[[Played], None] | None = None,
) -> Played:
    """:func:`play` for a caller that has read the game (with its table) for update and then
    its seats (position -> seat, with users) in the transaction it is in: the act view, which
    needs them before the move anyway, reads them once."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("play_locked needs the transaction that read the game for update")
    game_id = game.pk
    engine = game_of(game.table)
    parsed = engine.parse_action(action) if isinstance(action, str) else action
    if game.version != expected_version:
        raise GameMovedOn(game.version)
    if game.status != Game.Status.PLAYING:
        # Stopped from outside (``stop_table``): the page the move came from is out of date.
        raise GameMovedOn(game.version)
    acting = seats.get(seat)
    if cause == Action.Cause.PLAYER and acting is not None and acting.handed_over:
        raise SeatHandedOver()
    state = engine.load(game.state)
    new_state, events = engine.apply(state, seat, parsed)
    version = expected_version + 1
    now = timezone.now()
    if acting is not None:
        if cause in CLOCK_CAUSES:
            if clocks.count_timeout(game, acting, engine, now):
                cause = Action.Cause.HANDED_OVER
        elif cause == Action.Cause.PLAYER:
            clocks.player_moved(acting)
    bots = {position: s.bot for position, s in seats.items() if s.bot}
    fields = _game_fields(game, engine, new_state, version, bots)
    plan = clocks.sync_clocks(game, engine, new_state, version, seats, now)
    fields["deadline"] = plan.deadline
    fields["seat_clocks"] = game.seat_clocks
    # The version in the filter is what makes a racing duplicate fail (SQLite has no
    # row locks; select_for_update only helps on PostgreSQL).
    updated = Game.objects.filter(pk=game_id, version=expected_version).update(**fields)
    if updated != 1:
        raise GameMovedOn(Game.objects.values_list("version", flat=True).get(pk=game_id))
    action_row = Action.objects.create(
        # By key, not the instance: the row joins the logs that the shared renders keep, and
        # must not hold this version's whole game (and its state) in memory with it.
        game_id=game_id,
        version=version,
        seat=seat,
        notation=str(parsed),
        # Stored with the secret part, for the acting seat's own log; views filter it.
        events=[engine.dump_event(e) for e in events],
        cause=cause,
    )
    owed_before = list(game.to_act)
    for name, value in fields.items():
        setattr(game, name, value)
    if not fields["to_act"]:
        _record_series(game.table, engine, new_state)
        game_finished.send(sender=Game, game=game, seats=seats)
    on_time = plan.on_time
    answered = (seat, answered_tab) if answered_tab else None
    played = Played(game, events, list(seats.values()), new_state, action_row)

    def after_commit() -> None:
        # Issue 31: the move counter and the ids of every later log line of this move.
        metrics.move_committed(game.table.game_type)
        json_logs.bind(game_id=game_id, version=version)
        if before_news is not None:
            try:
                before_news(played)
            except Exception:  # the move is saved and must still be announced
                log.exception("before_news failed for game %s", game_id)
        # The game's sockets, the badges of the players whose turn came or went, and a
        # tournament's page: their messages go to the channel layer in one hop.
        with publishing_together():
            after_move(game_id, version, fields["waiting_for_bot"], on_time, answered)
            announce_turns(
                game_id,
                version,
                owed_before,
                fields["to_act"],
                table=game.table,
                seats=seats.values(),
            )

    transaction.on_commit(after_commit)
    return played


# The causes that mean the clock played the move.
CLOCK_CAUSES = frozenset({Action.Cause.TIMEOUT, Action.Cause.AUTOPLAY, Action.Cause.HANDED_OVER})


class SeatHandedOver(Exception):
    """A player's move on a seat a bot plays since their time ran out too often."""

    def __init__(self) -> None:
        super().__init__(
            _("A bot plays your seat since your time ran out: take your seat back first.")
        )


def table_seats(table_id: int) -> dict[int, Seat]:
    """Seat position -> seat (with its user), for the clocks and the bots."""
    return {s.position: s for s in Seat.objects.of_table(table_id)}


def bot_seats(table_id: int) -> dict[int, str]:
    """Seat position -> bot level, for the bot seats of a table."""
    return dict(
        Seat.objects.filter(table_id=table_id).exclude(bot="").values_list("position", "bot")
    )


def next_bot_seat(to_act: Iterable[int], bots: dict[int, str]) -> int | None:
    """The bot seat that owes the next action, if any: the lowest bot seat the engine waits
    for (when several seats act at once, bots answer one after another)."""
    return next((seat for seat in sorted(to_act) if seat in bots), None)


def _game_fields(
    game: Game, engine: GameEngine, state: Any, version: int, bots: dict[int, str]
) -> dict[str, Any]:
    """The columns saved with a state: who acts comes from the engine's ``to_act`` alone."""
    ctx = engine.ctx(state)
    to_act = sorted(ctx.to_act)
    outcome = ctx.result
    over = not to_act
    return {
        "phase": ctx.phase,
        "waiting_for_bot": next_bot_seat(to_act, bots) is not None,
        "updated_at": timezone.now(),
        "state": engine.dump(state),
        "version": version,
        "to_act": to_act,
        "status": Game.Status.FINISHED if over else Game.Status.PLAYING,
        "scores": list(outcome.scores) if outcome else None,
        "finished_at": timezone.now() if over else None,
    }


def load_series(table: Table) -> Series | None:
    """The table's series as the engine keeps it (None before the table starts)."""
    if not table.series:
        return None
    return Series.load(game_of(table), table.series)


def _series_data(table: Table) -> dict[str, Any]:
    """The series of a table past its start, which the start wrote."""
    if table.series is None:
        raise ValueError(f"table {table.pk} has no series")
    return table.series


def _record_series(table: Table, engine: GameEngine, finished: Any) -> None:
    series = Series.load(engine, _series_data(table)).record(finished)
    table.series = series.to_dict()
    fields = ["series", "updated_at"]
    if series.over:
        table.status = Table.Status.FINISHED
        fields.append("status")
        # The lobby's "live now" list drops the table.
        transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    table.save(update_fields=fields)


def after_move(
    game_id: int,
    version: int,
    bot_due: bool,
    on_time: list[tuple[int, int, int, Any]] | None = None,
    answered: tuple[int, str] | None = None,
) -> None:
    """After commit: tell every socket watching the game (but the page answered with the
    move: its seat and name); hand the turn to a bot if one owes the next action; queue the
    timeouts due soon to fire at their deadlines."""
    # ``at``: the moment of the commit, for the move-to-seat latency the sockets measure.
    message: dict[str, Any] = {"type": "game.updated", "version": version, "at": time.time()}
    if answered is not None:
        message["answered_seat"], message["answered"] = answered
    publish(group_name(game_id), message)
    if on_time:
        try:
            work_queue.queue_timeouts(on_time)
        except Exception:  # the beat sweep queues (or plays) what could not be queued here
            log.exception("could not queue the on-time clock tasks of game %s", game_id)
    if bot_due:
        try:
            work_queue.queue_bot_turn(game_id, version)
        except Exception:  # the move is saved; the bot sweep queues the turn once it can
            log.exception("could not queue the bot's move in game %s", game_id)


# Messages published inside ``publishing_together``, sent when it ends.
_together: ContextVar[list[tuple[str, dict]] | None] = ContextVar("publish_together", default=None)


@contextmanager
def publishing_together() -> Iterator[None]:
    """What is published inside goes to the channel layer at the end, in order, in one hop
    from this thread to the event loop (each hop costs a thread switch and a loop wake-up,
    and a move used to make three)."""
    if _together.get() is not None:
        yield  # already gathering: the outer block sends
        return
    token = _together.set([])
    try:
        yield
    finally:
        messages = _together.get() or []
        _together.reset(token)
        _send(messages)


def publish(group: str, message: dict) -> None:
    gathering = _together.get()
    if gathering is not None:
        gathering.append((group, message))
    else:
        _send([(group, message)])


def _send(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    # The site's layer sends them all in two round trips to Redis (remi_site.channel_layer);
    # another layer (the in-memory one a test may use) group by group.
    send = getattr(layer, "group_send_many", None)
    try:
        async_to_sync(send or functools.partial(_group_send_each, layer))(messages)
    except Exception:  # a lost notification must never undo a saved move
        log.exception("could not publish %s", [m.get("type") for _, m in messages])


async def _group_send_each(layer: Any, messages: list[tuple[str, dict]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # one group that fails does not keep the others from their news
            log.exception("could not publish %s to %s", message.get("type"), group)


# --- Tables ----------------------------------------------------------------------------------


class TableError(ValueError):
    """A lobby action that cannot be done (table full, not the owner…), said for the player."""


@dataclass(frozen=True)
class TableChoices:
    """What the owner chooses for a new table (the lobby form's ``create_kwargs``)."""

    game_type: str | None = None  # a key of the registry; the first game when None
    preset: str | None = None  # one of the game's presets; its default when None
    options: dict | None = None  # rule options changing the preset
    seat_count: int = 4
    bots: list[str] | None = None  # bot levels for the seats after the owner's
    pace: str = Table.Pace.LIVE
    move_seconds: int = 0
    is_public: bool = True
    weekends_off: bool = False
    # By pace when None: a bot plays the turn at correspondence tables, the safe timeout
    # move at live ones.
    on_timeout: str | None = None
    handover_after: int = 3
    vacation_allowed: bool = True
    rated: bool = False  # people only: no bot seats
    bot_speed: str = Table.BotSpeed.NORMAL


def create_table(owner, **choices: Any) -> Table:
    """A new table with its owner in the first seat and bots in the next ones; ``choices``
    are the fields of :class:`TableChoices`.  Raises TableError, said for the player, for
    choices that do not fit or an owner with too many unfinished tables."""
    fields, bots = _new_table_fields(TableChoices(**choices))
    with transaction.atomic():
        # Locking the owner's row makes two creations by one player take turns, so both
        # cannot pass the count below at once.
        get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
        _check_room_for_a_table(owner)
        table = Table.objects.create(owner=owner, **fields)
        Seat.objects.create(table=table, position=0, user=owner)
        for position, level in enumerate(bots, start=1):
            Seat.objects.create(table=table, position=position, bot=level)
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return table


def check_new_table(owner, **choices: Any) -> None:
    """What :func:`create_table` would refuse, without making anything (TableError): the
    admin's "Add table" checks with it before it saves."""
    _new_table_fields(TableChoices(**choices))
    _check_room_for_a_table(owner)


def _new_table_fields(c: TableChoices) -> tuple[dict[str, Any], list[str]]:
    """The Table's fields for the choices, checked, and the bot levels to seat."""
    pace, on_timeout, seat_count = c.pace, c.on_timeout, c.seat_count
    if pace not in Table.Pace.values:
        raise TableError(_("Unknown pace '%(pace)s'.") % {"pace": pace})
    if on_timeout is None:
        on_timeout = Table.OnTimeout.AUTOPLAY if pace == Table.Pace.SLOW else Table.OnTimeout.MOVE
    if on_timeout not in Table.OnTimeout.values:
        raise TableError(_("Unknown choice on timeout '%(choice)s'.") % {"choice": on_timeout})
    if c.move_seconds < 0 or c.handover_after < 0:
        raise TableError(_("Times and counts are never negative."))
    game, preset, rules = checked_rules(c.game_type, c.preset, c.options, seat_count)
    bots = list(c.bots or [])
    if len(bots) >= seat_count:
        raise TableError(_("Leave at least one seat for a person."))
    if any(level not in game.bot_levels for level in bots):
        raise TableError(_("Unknown bot level."))
    if c.rated and bots:
        raise TableError(_("A rated table is for people only: leave the bot seats out."))
    if c.bot_speed not in Table.BotSpeed.values:
        raise TableError(_("Unknown bot speed '%(speed)s'.") % {"speed": c.bot_speed})
    fields = {
        "game_type": game.key,
        "preset": preset,
        "rules": game.dump_rules(rules),
        "seat_count": seat_count,
        "pace": pace,
        "move_seconds": c.move_seconds,
        "is_public": c.is_public,
        "weekends_off": c.weekends_off,
        "on_timeout": on_timeout,
        "handover_after": c.handover_after,
        "vacation_allowed": c.vacation_allowed,
        "rated": c.rated,
        "bot_speed": c.bot_speed,
    }
    return fields, bots


def _check_room_for_a_table(owner) -> None:
    limit = settings.MAX_OPEN_TABLES_PER_USER
    unfinished = Table.objects.filter(owner=owner).exclude(status=Table.Status.FINISHED)
    if unfinished.count() >= limit:
        raise TableError(
            ngettext(
                "You already have %(limit)d table that is not finished, the most one player "
                "may have. Close a table nobody has joined, or finish a game, then try again.",
                "You already have %(limit)d tables that are not finished, the most one player "
                "may have. Close a table nobody has joined, or finish a game, then try again.",
                limit,
            )
            % {"limit": limit}
        )


def checked_rules(
    game_type: str | None, preset: str | None, options: dict | None, seat_count: int
) -> tuple[GameEngine, str, Any]:
    """The game, the preset's name and the rules for a new table; TableError for a game,
    preset, seat count or option the registry does not know or that do not fit together."""
    try:
        game = get_game(game_type or default_game_type())
    except UnknownGame:
        raise TableError(_("Unknown game '%(game)s'.") % {"game": game_type}) from None
    preset = preset or game.default_preset
    if preset not in game.presets:
        raise TableError(_("Unknown rules preset '%(preset)s'.") % {"preset": preset})
    if not game.min_seats <= seat_count <= game.max_seats:
        raise TableError(
            _("A table has %(fewest)d to %(most)d seats.")
            % {"fewest": game.min_seats, "most": game.max_seats}
        )
    try:
        base = game.dump_rules(game.presets[preset])
        rules = game.load_rules({**base, **(options or {})})
    except (TypeError, ValueError) as error:
        raise TableError(
            _("Those rule options do not fit together: %(why)s") % {"why": error}
        ) from None
    return game, preset, rules


def create_arranged_table(
    owner,
    players: list[Any],
    *,
    game_type: str,
    preset: str | None = None,
    options: dict | None = None,
    pace: str = Table.Pace.LIVE,
    move_seconds: int = 0,
    vacation_allowed: bool = True,
    rated: bool = False,
) -> Table:
    """A table seated by its caller, not by people joining: ``players`` (users, or bot
    levels) take the seats in order, and ``owner`` (who need not sit) may start it.

    For an organiser's tables (tournaments): they do not count against the owner's limit
    of open tables, which guards the lobby, and the caller starts them at once, so the
    lobby never lists them as open; anyone logged in may watch their games."""
    game, preset, rules = checked_rules(game_type, preset, options, len(players))
    if pace not in Table.Pace.values:
        raise TableError(_("Unknown pace '%(pace)s'.") % {"pace": pace})
    on_timeout = Table.OnTimeout.AUTOPLAY if pace == Table.Pace.SLOW else Table.OnTimeout.MOVE
    with transaction.atomic():
        table = Table.objects.create(
            owner=owner,
            game_type=game.key,
            preset=preset,
            rules=game.dump_rules(rules),
            seat_count=len(players),
            pace=pace,
            move_seconds=move_seconds,
            on_timeout=on_timeout,
            vacation_allowed=vacation_allowed,
            rated=rated,
            arranged=True,
        )
        for position, player in enumerate(players):
            if isinstance(player, str):
                if player not in game.bot_levels:
                    raise TableError(_("Unknown bot level."))
                Seat.objects.create(table=table, position=position, bot=player)
            else:
                Seat.objects.create(table=table, position=position, user=player)
    return table


# The settings a rematch copies: everything the owner chose for the table.
REMATCH_FIELDS = (
    "game_type",
    "preset",
    "rules",
    "seat_count",
    "pace",
    "move_seconds",
    "weekends_off",
    "on_timeout",
    "handover_after",
    "vacation_allowed",
    "is_public",
    "rated",
    "bot_speed",
)


def rematch(table: Table, user) -> Table:
    """ "Play again with the same settings": a new open table with the finished table's
    settings and its players in the same seats (bots too), owned by ``user``, who played at
    it and starts it.  Everyone who asks gets the same new table; any player may leave it
    before it starts.  TableError, said for the player, when it cannot be."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        existing = Table.objects.filter(rematch_of=table).first()
        if existing is not None:
            return existing
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise TableError(_("Only the players of this table can ask to play again."))
        if table.arranged:
            raise TableError(
                _("The organiser seated this table: the next match is theirs to arrange.")
            )
        if table.status != Table.Status.FINISHED:
            raise TableError(_("The match is not over yet: ask to play again once it ends."))
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _check_room_for_a_table(user)
        fields = {name: getattr(table, name) for name in REMATCH_FIELDS}
        new = Table.objects.create(owner=user, rematch_of=table, **fields)
        for seat in seats:
            # A person a bot played for after their timeouts sits down again as themselves.
            if seat.user_id is not None:
                Seat.objects.create(table=new, position=seat.position, user_id=seat.user_id)
            else:
                Seat.objects.create(table=new, position=seat.position, bot=seat.bot)
        last = Game.objects.filter(table=table).order_by("-number").values_list("pk", flat=True)
        last_game = last.first()

    def tell() -> None:
        publish(LOBBY_GROUP, {"type": "lobby.changed"})
        if last_game is not None:
            # The finished game's page gains the link to the new table, as it does for a
            # series' next game.
            publish(group_name(last_game), {"type": "game.next_dealt", "table": new.pk})

    transaction.on_commit(tell)
    return new


def hand_seat_to_bot(table: Table, position: int, level: str | None = None) -> Seat:
    """A bot takes a person's seat for the rest of the series and the person leaves it (an
    organiser replacing a player who withdrew): unlike a seat handed over after timeouts,
    nobody can take it back.  ``level`` defaults to the bot that autoplays for players."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        engine = game_of(table)
        level = level or clocks.autoplay_level(engine)
        if level not in engine.bot_levels:
            raise TableError(_("Unknown bot level."))
        seat = Seat.objects.get(table=table, position=position)
        seat.user = None
        seat.bot = level
        seat.abandoned_at = None
        seat.timeouts_in_row = 0
        seat.save(update_fields=["user", "bot", "abandoned_at", "timeouts_in_row"])
        game = (
            Game.objects.select_for_update()
            .filter(table=table, status=Game.Status.PLAYING)
            .order_by("-number")
            .first()
        )
        if game is None:
            return seat
        # A bot has no clock: its own task plays the turn.
        SeatClock.objects.filter(game=game, seat=position, ended_at__isnull=True).update(
            deadline=None, due_at=None, eta_at=None
        )
        bot_due = next_bot_seat(game.to_act, bot_seats(table.pk)) is not None
        Game.objects.filter(pk=game.pk).update(waiting_for_bot=bot_due)
        clocks.refresh_game_deadlines([game.pk])
        version = game.version
        transaction.on_commit(lambda: after_move(game.pk, version, bot_due))
    return seat


def stop_table(table: Table) -> Game | None:
    """End a table now, from outside the game (a tournament organiser's adjudication or
    forfeit decides the match): its game being played stops where it stands and the series
    ends with it.  The game is marked finished with each seat's score of the position by
    the game's own rule for an ending without anyone out (``unfinished_scores``), its
    clocks stop, and the version moves on, so every move, bot task or timeout still on its
    way is refused as stale; the sockets are told as after a move, so each page redraws for
    its own seat.  Idempotent: a finished table is left as it is.  Returns the stopped
    game (None when no game was being played).  No ``game_finished``: nobody finished the
    game, so it neither counts for the series nor for ratings."""
    with transaction.atomic():
        # The game with its table first, as ``play`` takes them (one lock order for both).
        game = (
            Game.objects.select_for_update()
            .select_related("table")
            .filter(table_id=table.pk, status=Game.Status.PLAYING)
            .order_by("-number")
            .first()
        )
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status == Table.Status.FINISHED and game is None:
            return None
        now = timezone.now()
        version = None
        if game is not None:
            engine = game_of(table)
            scores = engine.unfinished_scores(engine.load(game.state))
            version = game.version + 1
            Game.objects.filter(pk=game.pk).update(
                status=Game.Status.FINISHED,
                to_act=[],
                waiting_for_bot=False,
                deadline=None,
                version=version,
                scores=list(scores),
                finished_at=now,
                updated_at=now,
            )
            clocks.end_clocks(game.pk, now)
            game.refresh_from_db()
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status", "updated_at"])
        if game is not None and version is not None:  # (a version only comes with a game)
            game_id = game.pk
            transaction.on_commit(
                lambda: publish(group_name(game_id), {"type": "game.updated", "version": version})
            )
        transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return game


def join_table(table: Table, user) -> Seat:
    """Sit ``user`` at the first free seat of an open table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status != Table.Status.OPEN:
            raise TableError(_("This table has already started."))
        taken = set(table.seats.values_list("position", flat=True))
        if table.seats.filter(user=user).exists():
            raise TableError(_("You are already sitting at this table."))
        if table.rated and getattr(user, "is_bot", False) and not _rated_with_bots(table):
            raise TableError(_("This rated table is for people: bot accounts may not sit here."))
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise TableError(_("This table is full."))
        seat = Seat.objects.create(table=table, position=free[0], user=user)
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return seat


def _rated_with_bots(table: Table) -> bool:
    """Whether the table's bot policy (bot_api.models.BotPolicy) lets bot accounts sit at it
    though it is rated; without one it does not."""
    policy = getattr(table, "bot_policy", None)  # the reverse one-to-one, when there is one
    return bool(policy and policy.rated_with_bots)


def leave_table(table: Table, user) -> None:
    """Stand up from an open table; an owner leaving closes the table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status != Table.Status.OPEN:
            raise TableError(_("You cannot leave a table once the game has started."))
        if table.owner_id == user.pk:
            table.delete()
        else:
            deleted, _by_model = Seat.objects.filter(table=table, user=user).delete()
            if not deleted:
                raise TableError(_("You are not sitting at this table."))
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))


def seat_names(table: Table) -> list[str]:
    return [seat.display_name for seat in table.seats.select_related("user")]


def start_table(table: Table, user) -> Game:
    """Deal the first game of the table's series.  Only the owner, only when every seat is taken."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.owner_id != user.pk:
            raise TableError(_("Only the table's owner can start it."))
        if table.status != Table.Status.OPEN:
            raise TableError(_("This table has already started."))
        if table.seats.count() != table.seat_count:
            raise TableError(_("Every seat must be taken before the game starts."))
        engine = game_of(table)
        rules = engine.load_rules(table.rules)
        series = start_series(engine, rules, seat_names(table), new_series_seed())
        table.series = series.to_dict()
        table.status = Table.Status.PLAYING
        table.save(update_fields=["series", "status", "updated_at"])
        game = _deal(table, series)
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return game


def next_game(table: Table) -> Game:
    """Deal the series' next game once the current one is over (idempotent)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        latest = table.games.order_by("-number").first()
        if latest is not None and latest.status != Game.Status.FINISHED:
            return latest
        if table.status == Table.Status.FINISHED:
            raise TableError(_("The series is over."))
        series = Series.load(game_of(table), _series_data(table))
        if series.over:
            raise TableError(_("The series is over."))
        game = _deal(table, series)
    # The lobby's "live now" list links to the table's new game.
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return game


def _deal(table: Table, series: Series) -> Game:
    engine = series.game
    state = series.next_game()
    ctx = engine.ctx(state)
    to_act = sorted(ctx.to_act)
    seats = table_seats(table.pk)
    bots = {position: s.bot for position, s in seats.items() if s.bot}
    game = Game.objects.create(
        phase=ctx.phase,
        table=table,
        number=len(series.games),
        state=engine.dump(state),
        version=0,
        to_act=to_act,
        engine_version=engine.engine_version,
        waiting_for_bot=next_bot_seat(to_act, bots) is not None,
    )
    # The commitment names the game, so it is written once the row has its id (same
    # transaction: nobody sees the game without it).
    game.deal_commitment = deals.commitment(game.pk, ctx.seed)
    plan = clocks.sync_clocks(game, engine, state, 0, seats, timezone.now())
    game.save(update_fields=["deal_commitment", "deadline", "seat_clocks"])
    transaction.on_commit(
        lambda: after_move(game.pk, game.version, game.waiting_for_bot, plan.on_time)
    )
    transaction.on_commit(lambda: announce_turns(game.pk, game.version, [], to_act))
    previous = (
        Game.objects.filter(table=table, number=game.number - 1)
        .values_list("pk", flat=True)
        .first()
    )
    if previous is not None:
        # The finished game's version does not change, so its pages (a spectator's above
        # all: only players deal) would not hear of the new game without this.
        transaction.on_commit(
            lambda: publish(group_name(previous), {"type": "game.next_dealt", "game": game.pk})
        )
    return game


def take_seat_back(table: Table, user) -> Seat:
    """A player whose seat a bot took after their timeouts plays it again (while the series
    lasts): the bot stands up, the count of timeouts starts afresh, and a turn in progress
    gets a whole turn's time from now."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        seat = Seat.objects.select_related("user").filter(table=table, user=user).first()
        if seat is None:
            raise TableError(_("You are not sitting at this table."))
        if not seat.handed_over:
            raise TableError(_("Your seat is yours already."))
        if table.status != Table.Status.PLAYING:
            raise TableError(_("The series is over."))
        seat.bot = Seat.Bot.NONE
        seat.abandoned_at = None
        seat.timeouts_in_row = 0
        seat.save(update_fields=["bot", "abandoned_at", "timeouts_in_row"])
        game = (
            Game.objects.select_for_update()
            .filter(table=table, status=Game.Status.PLAYING)
            .order_by("-number")
            .first()
        )
        if game is None:
            return seat
        now = timezone.now()
        plan = clocks.restart_seat_clock(game, seat, now)
        bots = bot_seats(table.pk)
        Game.objects.filter(pk=game.pk).update(
            waiting_for_bot=next_bot_seat(game.to_act, bots) is not None
        )
        clocks.refresh_game_deadlines([game.pk])
        version = game.version
        transaction.on_commit(lambda: after_move(game.pk, version, False, plan.on_time))
    return seat
