"""The one path every move takes: load, check, engine, save, then tell everyone.

Views, WebSocket consumers, bot tasks and deadline sweeps all call :func:`play`.  A move is
applied only if the game is still at the version the player was looking at; the save is a
conditional update, so two racing requests cannot both apply, on SQLite or PostgreSQL.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine.events import Event
from games.engine.series import Series, new_series
from games.engine.state import OVER, PRELUDE, State
from games.models import Action, Game, Seat, Table, new_series_seed

log = logging.getLogger(__name__)


class GameMovedOn(Exception):
    """The action was made against an older version of the game."""

    def __init__(self, current_version: int) -> None:
        super().__init__("The game has moved on: here is the current position.")
        self.current_version = current_version


@dataclass(frozen=True)
class Played:
    game: Game
    events: list[Event]


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


LOBBY_GROUP = "lobby"


def play(game_id: int, seat: int, action: engine.Action | str, expected_version: int) -> Played:
    """Apply ``action`` for ``seat`` if the game is still at ``expected_version``.

    Raises GameMovedOn for a stale version, the engine's InvalidAction / IllegalAction /
    NotYourTurn for a refused move, and Game.DoesNotExist for an unknown game.  A refused or
    stale action changes nothing.
    """
    parsed = engine.parse_action(action) if isinstance(action, str) else action
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("table").get(pk=game_id)
        if game.version != expected_version:
            raise GameMovedOn(game.version)
        state = State.from_dict(game.state)
        new_state, events = engine.apply(state, seat, parsed)
        version = expected_version + 1
        bots = bot_seats(game.table_id)
        fields = _game_fields(game, new_state, version, bots)
        # The version in the filter is what makes a racing duplicate fail (SQLite has no
        # row locks; select_for_update only helps on PostgreSQL).
        updated = Game.objects.filter(pk=game_id, version=expected_version).update(**fields)
        if updated != 1:
            raise GameMovedOn(Game.objects.values_list("version", flat=True).get(pk=game_id))
        Action.objects.create(
            game=game,
            version=version,
            seat=seat,
            notation=str(parsed),
            # Stored with the secret part, for the acting seat's own log; views filter it.
            events=[e.to_dict(viewer=e.seat) for e in events],
        )
        for name, value in fields.items():
            setattr(game, name, value)
        if new_state.phase == OVER:
            _record_series(game.table, new_state)
        transaction.on_commit(lambda: after_move(game_id, version, fields["waiting_for_bot"]))
    return Played(game, events)


def bot_seats(table_id: int) -> dict[int, str]:
    """Seat position -> bot level, for the bot seats of a table."""
    return dict(
        Seat.objects.filter(table_id=table_id).exclude(bot="").values_list("position", "bot")
    )


def next_bot_seat(state: State, bots: dict[int, str]) -> int | None:
    """The bot seat that owes the next action, if any.  In the prelude every seat acts on its
    own; bots answer one after another."""
    if state.phase == OVER:
        return None
    if state.phase == PRELUDE:
        return next((s for s in sorted(bots) if not state.ready[s]), None)
    return state.turn if state.turn in bots else None


def _game_fields(game: Game, state: State, version: int, bots: dict[int, str]) -> dict:
    over = state.phase == OVER
    return {
        "waiting_for_bot": next_bot_seat(state, bots) is not None,
        "updated_at": timezone.now(),
        "state": state.to_dict(),
        "version": version,
        "turn": None if over else state.turn,
        "status": Game.Status.FINISHED if over else Game.Status.PLAYING,
        "scores": list(state.result.scores) if state.result else None,
        "finished_at": timezone.now() if over else None,
        "deadline": None if over else deadline_for(game.table),
    }


def deadline_for(table: Table):
    if table.move_seconds <= 0:
        return None
    return timezone.now() + timedelta(seconds=table.move_seconds)


def _record_series(table: Table, finished: State) -> None:
    series = Series.from_dict(table.series).record(finished)
    table.series = series.to_dict()
    fields = ["series", "updated_at"]
    if series.over:
        table.status = Table.Status.FINISHED
        fields.append("status")
    table.save(update_fields=fields)


def after_move(game_id: int, version: int, bot_due: bool) -> None:
    """After commit: tell every socket watching the game; hand the turn to a bot if one owes
    the next action."""
    publish(group_name(game_id), {"type": "game.updated", "version": version})
    if bot_due:
        from games.tasks import schedule_bot_move  # the service must not need Celery to import

        schedule_bot_move(game_id, version)


def publish(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost notification must never undo a saved move
        log.exception("could not publish %s to %s", message.get("type"), group)


# --- Tables ----------------------------------------------------------------------------------


class TableError(ValueError):
    """A lobby action that cannot be done (table full, not the owner…), said for the player."""


def create_table(
    owner,
    *,
    preset: str = "remi",
    options: dict | None = None,
    seat_count: int = 4,
    bots: list[str] | None = None,
    pace: str = Table.Pace.LIVE,
    move_seconds: int = 0,
    is_public: bool = True,
) -> Table:
    """A new table with its owner in the first seat and ``bots`` (levels) in the next ones."""
    if preset not in engine.PRESETS:
        raise TableError(f"Unknown rules preset '{preset}'.")
    if not 2 <= seat_count <= 4:
        raise TableError("A table has 2 to 4 seats.")
    bots = list(bots or [])
    if len(bots) >= seat_count:
        raise TableError("Leave at least one seat for a person.")
    if any(level not in Seat.Bot.values or not level for level in bots):
        raise TableError("Unknown bot level.")
    try:
        rules = engine.PRESETS[preset].with_options(**(options or {}))
    except (TypeError, ValueError) as error:
        raise TableError(f"Those rule options do not fit together: {error}") from None
    with transaction.atomic():
        table = Table.objects.create(
            owner=owner,
            preset=preset,
            rules=rules.to_dict(),
            seat_count=seat_count,
            pace=pace,
            move_seconds=move_seconds,
            is_public=is_public,
        )
        Seat.objects.create(table=table, position=0, user=owner)
        for position, level in enumerate(bots, start=1):
            Seat.objects.create(table=table, position=position, bot=level)
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return table


def join_table(table: Table, user) -> Seat:
    """Sit ``user`` at the first free seat of an open table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status != Table.Status.OPEN:
            raise TableError("This table has already started.")
        taken = set(table.seats.values_list("position", flat=True))
        if table.seats.filter(user=user).exists():
            raise TableError("You are already sitting at this table.")
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise TableError("This table is full.")
        seat = Seat.objects.create(table=table, position=free[0], user=user)
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))
    return seat


def leave_table(table: Table, user) -> None:
    """Stand up from an open table; an owner leaving closes the table."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.status != Table.Status.OPEN:
            raise TableError("You cannot leave a table once the game has started.")
        if table.owner_id == user.pk:
            table.delete()
        else:
            deleted, _ = Seat.objects.filter(table=table, user=user).delete()
            if not deleted:
                raise TableError("You are not sitting at this table.")
    transaction.on_commit(lambda: publish(LOBBY_GROUP, {"type": "lobby.changed"}))


def seat_names(table: Table) -> list[str]:
    return [seat.display_name for seat in table.seats.select_related("user")]


def start_table(table: Table, user) -> Game:
    """Deal the first game of the table's series.  Only the owner, only when every seat is taken."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        if table.owner_id != user.pk:
            raise TableError("Only the table's owner can start it.")
        if table.status != Table.Status.OPEN:
            raise TableError("This table has already started.")
        if table.seats.count() != table.seat_count:
            raise TableError("Every seat must be taken before the game starts.")
        rules = engine.Rules.from_dict(table.rules)
        series = new_series(rules, seat_names(table), new_series_seed())
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
        series = Series.from_dict(table.series)
        if series.over:
            raise TableError("The series is over.")
        return _deal(table, series)


def _deal(table: Table, series: Series) -> Game:
    state = series.next_game()
    game = Game.objects.create(
        table=table,
        number=len(series.games),
        state=state.to_dict(),
        version=0,
        turn=state.turn,
        deadline=deadline_for(table),
        waiting_for_bot=next_bot_seat(state, bot_seats(table.pk)) is not None,
    )
    transaction.on_commit(lambda: after_move(game.pk, game.version, game.waiting_for_bot))
    return game
