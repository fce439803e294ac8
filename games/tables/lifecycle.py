"""A table's life: created (by a player in the lobby, or seated by an organiser), joined and
left, started, its series' games dealt one after another, a rematch; and the organiser's
hand on it from outside (a seat given to a bot, the table stopped).

Moves are not made here: ``games.play.services.play`` is their one path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import deals
from games.clocks import seat_clocks
from games.engine import GameEngine, UnknownGame, get_game
from games.engine.core.series import Series, start_series
from games.models import Game, Seat, SeatClock, Table, default_game_type, new_series_seed
from games.play.news import LOBBY_GROUP, group_name, publish
from games.play.services import (
    after_move,
    bot_seats,
    game_of,
    next_bot_seat,
    series_data,
    table_seats,
)
from games.play.turn_events import announce_turns


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
        level = level or seat_clocks.autoplay_level(engine)
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
        seat_clocks.refresh_game_deadlines([game.pk])
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
            seat_clocks.end_clocks(game.pk, now)
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
        series = Series.load(game_of(table), series_data(table))
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
    plan = seat_clocks.sync_clocks(game, engine, state, 0, seats, timezone.now())
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
        plan = seat_clocks.restart_seat_clock(game, seat, now)
        bots = bot_seats(table.pk)
        Game.objects.filter(pk=game.pk).update(
            waiting_for_bot=next_bot_seat(game.to_act, bots) is not None
        )
        seat_clocks.refresh_game_deadlines([game.pk])
        version = game.version
        transaction.on_commit(lambda: after_move(game.pk, version, False, plan.on_time))
    return seat
