"""The one path every move takes: load, check, engine, save, then tell everyone.

Views, WebSocket consumers, bot tasks and deadline sweeps all call :func:`play`.  A move is
applied only if the game is still at the version the player was looking at; the save is a
conditional update, so two racing requests cannot both apply, on SQLite or PostgreSQL.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import hot_reads
from games.clocks import seat_clocks, work_queue
from games.engine import GameEngine, get_game
from games.engine.core.series import Series
from games.models import (
    Action,
    Game,
    Seat,
    Table,
)
from games.play.news import LOBBY_GROUP, group_name, publish, publishing_together
from games.play.turn_events import announce_turns
from games.signals import game_finished
from remi_site import json_logs, metrics
from remi_site.prepared_queries import PreparedInsert, PreparedUpdate

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
    # As the move left them, for the pages drawn straight after it (games.play.live_views).
    seats: list[Seat]
    state: Any
    action: Action  # the move's row of the log, as stored


def game_of(table: Table) -> GameEngine:
    """The registered game a table plays (UnknownGame, a ValueError, for a key no longer
    registered)."""
    return get_game(table.game_type)


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
    (``games.play.page_tabs``) that is answered with the new position, so its socket skips it.
    ``before_news`` is called with the move once it is committed, before anyone is told of it
    (the act view keeps the position for its own process's sockets there).

    Raises GameMovedOn for a stale version, the engine's InvalidAction / IllegalAction /
    NotYourTurn for a refused move, SeatHandedOver for a player's move on a seat a bot now
    plays, and Game.DoesNotExist for an unknown game.  A refused or stale action changes
    nothing.  The seats' clocks are updated in the same transaction as the move.
    """
    with transaction.atomic():
        game = hot_reads.game_with_table(game_id, lock=True)
        if game is None:
            raise Game.DoesNotExist(f"no game {game_id}")
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
            if seat_clocks.count_timeout(game, acting, engine, now):
                cause = Action.Cause.HANDED_OVER
        elif cause == Action.Cause.PLAYER:
            seat_clocks.player_moved(acting)
    bots = {position: s.bot for position, s in seats.items() if s.bot}
    fields = _game_fields(game, engine, new_state, version, bots)
    plan = seat_clocks.sync_clocks(game, engine, new_state, version, seats, now)
    fields["deadline"] = plan.deadline
    fields["seat_clocks"] = game.seat_clocks
    # The version in the filter is what makes a racing duplicate fail (SQLite has no
    # row locks; select_for_update only helps on PostgreSQL).
    updated = _SAVE_MOVE(fields, game_id, expected_version)
    if updated != 1:
        raise GameMovedOn(Game.objects.values_list("version", flat=True).get(pk=game_id))
    action_row = _RECORD_ACTION(
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
    return {s.position: s for s in hot_reads.table_seats(table_id)}


def bot_seats(table_id: int) -> dict[int, str]:
    """Seat position -> bot level, for the bot seats of a table."""
    return dict(
        Seat.objects.filter(table_id=table_id).exclude(bot="").values_list("position", "bot")
    )


def next_bot_seat(to_act: Iterable[int], bots: dict[int, str]) -> int | None:
    """The bot seat that owes the next action, if any: the lowest bot seat the engine waits
    for (when several seats act at once, bots answer one after another)."""
    return next((seat for seat in sorted(to_act) if seat in bots), None)


# The move's row in the log, its insert's SQL made once (nothing listens for its saves).
_RECORD_ACTION = PreparedInsert(Action)

# The columns every move writes on its game's row (``_game_fields`` and the clocks), on the
# row at the version the move was made at: the update's SQL is made once.
_SAVE_MOVE = PreparedUpdate(
    Game,
    (
        "phase",
        "waiting_for_bot",
        "updated_at",
        "state",
        "version",
        "to_act",
        "status",
        "scores",
        "finished_at",
        "deadline",
        "seat_clocks",
    ),
    ("id", "version"),
)


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


def series_data(table: Table) -> dict[str, Any]:
    """The series of a table past its start, which the start wrote."""
    if table.series is None:
        raise ValueError(f"table {table.pk} has no series")
    return table.series


def _record_series(table: Table, engine: GameEngine, finished: Any) -> None:
    series = Series.load(engine, series_data(table)).record(finished)
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
