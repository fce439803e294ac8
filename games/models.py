"""Tables, seats, games (one hand of a table's series) and the append-only action log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import GAMES, game_choices
from remi_site.choices import TextChoices


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def new_series_seed() -> str:
    return secrets.token_hex(16)


def default_game_type() -> str:
    """The first game of the registry (the site's own game)."""
    return next(iter(GAMES))


def default_preset() -> str:
    """The default game's own rules."""
    return GAMES[default_game_type()].default_preset


class Table(models.Model):
    # What no admin list filters, searches or sorts by for a user without the
    # view_hidden_information permission (remi_site/admin_site.py): the series' seed.
    hidden_information_fields = ("series",)

    class Status(TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Pace(TextChoices):
        LIVE = "live", _("Live")
        # Correspondence: a move when you have time, with a clock of hours or days.
        SLOW = "slow", _("Slow (play by mail)")

    class OnTimeout(TextChoices):
        # The engine's always-legal timeout move (and the game's penalty where it has one).
        MOVE = "move", _("Play the safe timeout move")
        # The seat's bot plays the whole turn for the player, and the timeout is counted.
        AUTOPLAY = "autoplay", _("A bot plays the turn for the player")

    # A key of games.engine.GAMES: every layer dispatches on it through the registry.
    game_type = models.CharField(max_length=20, choices=game_choices, default=default_game_type)
    preset = models.CharField(max_length=40, default=default_preset)
    rules = models.JSONField(help_text="The engine's rule options for every game of the series.")
    seat_count = models.PositiveSmallIntegerField(default=4)
    pace = models.CharField(max_length=10, choices=Pace, default=Pace.LIVE)
    move_seconds = models.PositiveIntegerField(
        default=0, help_text="Time allowed per move; 0 means no deadline."
    )
    # Correspondence options (games/clocks/seat_clocks.py applies them).
    # Every new column has a database default too: rows written by code that predates it (a
    # process of the previous release during a deploy) still insert.
    weekends_off = models.BooleanField(
        default=False,
        db_default=False,
        help_text="No clock on Saturday and Sunday in each player's time zone.",
    )
    on_timeout = models.CharField(
        max_length=10, choices=OnTimeout, default=OnTimeout.MOVE, db_default=OnTimeout.MOVE
    )
    handover_after = models.PositiveSmallIntegerField(
        default=3,
        db_default=3,
        help_text="Timeouts in a row after which a bot takes the seat for the series (0: never).",
    )
    vacation_allowed = models.BooleanField(
        default=True,
        db_default=True,
        help_text="Players' vacations stop their clocks at this table.",
    )
    is_public = models.BooleanField(default=True)

    class BotSpeed(TextChoices):
        INSTANT = "instant", _("Instant")
        NORMAL = "normal", _("Normal: a short pause, as a person would")
        SLOW = "slow", _("Slow: time to watch every move")

    # How long bots pause before each move at tables with people (bot-only tables never wait).
    bot_speed = models.CharField(
        max_length=8, choices=BotSpeed, default=BotSpeed.NORMAL, db_default=BotSpeed.NORMAL
    )
    # Finished games move the players' ratings (tournaments/ratings.py); people only.
    rated = models.BooleanField(default=False, db_default=False)
    # Seated by an organiser (a tournament's match): its players do not start a rematch of it.
    arranged = models.BooleanField(default=False, db_default=False)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_tables"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN, db_index=True)
    # The series (dealer, totals) as the engine keeps it; its seed never leaves the server.
    series = models.JSONField(null=True, blank=True)
    # "Play again": the table this one repeats (its settings and players). One per table, so
    # every player who asks lands at the same new table.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.get_game_type_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def is_full(self) -> bool:
        return self.seats.count() >= self.seat_count


class SeatQuerySet(models.QuerySet):
    def of_table(self, table_id: int) -> SeatQuerySet:
        """A table's seats with their users, by position.  The model's own ordering starts
        with the table, which orders by the tables' ordering and so joins the table in."""
        return self.filter(table_id=table_id).select_related("user").order_by("position")


class Seat(models.Model):
    # The seat's own rack, in its player's order.
    hidden_information_fields = ("rack_order",)

    class Bot(TextChoices):
        NONE = "", _("Human")
        EASY = "easy", _("Bot (easy)")
        NORMAL = "normal", _("Bot (normal)")
        HARD = "hard", _("Bot (hard)")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(max_length=10, choices=Bot, default=Bot.NONE, blank=True)
    # The player's own arrangement of their rack (tile notation); the engine does not care.
    rack_order = models.JSONField(default=list, blank=True)
    # Turns in a row the clock played for the player (autoplay); a move of theirs resets it.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0, db_default=0)
    # Set when the seat was handed to a bot after too many timeouts: the player abandoned
    # it.  ``bot`` then holds the bot's level and ``user`` stays, so the player can take the
    # seat back while the series lasts (which clears both).
    abandoned_at = models.DateTimeField(null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ("table", "position")
        constraints = (
            models.UniqueConstraint(fields=["table", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot=""),
                name="seat_has_player_or_bot",
            ),
        )

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def handed_over(self) -> bool:
        """A person's seat that a bot plays after the clock took it from them."""
        return bool(self.bot) and self.user_id is not None

    @property
    def display_name(self) -> str:
        if self.user is not None:
            return self.user.public_name
        return f"{self.get_bot_display()} {self.position + 1}"


class Game(models.Model):
    # Racks, the wall and the seed.
    hidden_information_fields = ("state",)

    class Status(TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="Index of this game in the series.")
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    # The seats the engine waits for (its ``to_act``), sorted; empty once the game is over.
    # Several seats at once in a phase where everyone acts (Remi's prelude).
    to_act = models.JSONField(default=list, blank=True)
    # The live SeatClock rows in brief, seat -> {turn, turn_number, phase, shared, started,
    # deadline, paused}: a move decides which turns go on without reading the clock table,
    # and a page shows every seat's clock without another query.  games/clocks/seat_clocks.py
    # keeps it.
    seat_clocks = models.JSONField(default=dict, db_default={}, blank=True)
    # The engine's code for the stage of play (its ctx.phase), for lists that show many
    # games without reading their states.
    phase = models.CharField(max_length=20, blank=True, default="")
    # SHA-256 of "<id>:<seed>", stored as the game is dealt and shown from its first move:
    # the seed, revealed when the game is over, can then be checked against it
    # (games/deals.py).
    # Empty for games dealt before commitments were kept.
    deal_commitment = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The engine version that dealt the game: a replay needs the rules it was played by.
    engine_version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status, default=Status.PLAYING)
    scores = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Set on every save so the beat sweep can find bot turns nobody took (worker died,
    # message lost) without reading the state of every game.
    waiting_for_bot = models.BooleanField(default=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set when neither a bot's choice nor the engine's timeout move could be played (the
    # engine cannot load the state, say): the sweeps leave the game alone until an admin
    # clears the flag.
    flagged_reason = models.TextField(blank=True, default="", db_default="")
    flagged_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ("table", "number")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="one_game_per_number"),
        )
        permissions = (
            # Staff who organise and also play must not see racks: the admin shows the
            # racks, wall and seed of a game still being played only with this permission.
            (
                "view_hidden_information",
                "Can see the racks, wall and seed of games still being played",
            ),
        )

    def __str__(self) -> str:
        return f"Table {self.table_id} · game {self.ordinal}"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.pk])

    @property
    def ordinal(self) -> int:
        """The game's place in its series as people count it: ``number`` is the series'
        index (0 for the first game); pages, emails and the admin all say ``ordinal``."""
        return self.number + 1


class Action(models.Model):
    """One applied action.  Append-only: the log replays the game from its seed."""

    # A move may name tiles only its player knows (a doubla's pair, a drawn tile's event).
    hidden_information_fields = ("notation", "events")

    class Cause(TextChoices):
        PLAYER = "", _("the player")
        BOT = "bot", _("a bot seat")
        # The clock played it: the table's timeout move, or a bot's choice for the player.
        TIMEOUT = "timeout", _("the timeout move")
        AUTOPLAY = "autoplay", _("autoplay")
        # Autoplay on the timeout that handed the seat to a bot for the rest of the series.
        HANDED_OVER = "handover", _("autoplay, seat handed to a bot")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="The game's version after this action.")
    seat = models.PositiveSmallIntegerField()
    # A tile rummy play writes the whole table after the turn: several hundred characters.
    notation = models.TextField()
    events = models.JSONField(default=list)
    # Who made the move; the log tells everyone when the clock played it.
    cause = models.CharField(
        max_length=10, choices=Cause, default=Cause.PLAYER, db_default="", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "version")
        constraints = (
            models.UniqueConstraint(fields=["game", "version"], name="one_action_per_version"),
        )

    def __str__(self) -> str:
        # No notation: the admin lists actions by this (deleting a game, say), and a move of
        # a game still being played may name tiles only its player knows (a doubla).
        return f"Game {self.game_id}, move {self.version} (seat {self.seat})"


class SeatClock(models.Model):
    """One seat's clock for one of its turns: identity ``(game, seat, turn)``.

    ``turn`` is the game's version when the seat's turn began, so a row stands for exactly
    one turn of one seat and never changes identity: code that must do something once per
    turn (a "your turn" email, an 80 % reminder, a timeout) keys on it.  A turn begins when
    the seat enters the engine's ``to_act`` (or the engine's turn number moves on while it
    stays there); it lasts through every action of that turn — draw today, discard
    tomorrow, undo — and ends (``ended_at``) when the seat leaves ``to_act`` or the game
    ends.  Several seats owing at once (Remi's prelude) each have their own row.

    ``deadline`` is what the player is told (None: no clock — an untimed table, a bot, a
    paused clock); ``due_at`` is when the sweep may act, which is the deadline, or later
    while a claim is being worked on or backed off, or None while the clock is stopped
    (vacation, a flagged game).  Only rows with a ``due_at`` that have not ended are in the
    sweep's (partial) index.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clocks")
    seat = models.PositiveSmallIntegerField()
    turn = models.PositiveIntegerField(help_text="The game's version when this turn began.")
    player_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="clocks")
    # What the engine said when the turn began, to tell the same turn from the next one.
    turn_number = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=20, blank=True, default="")
    shared = models.BooleanField(
        default=False, help_text="Began while several seats owed an action at once."
    )
    started_at = models.DateTimeField()
    allowance = models.PositiveIntegerField(default=0, help_text="Seconds of clock time.")
    deadline = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    # The due_at an on-time (eta) task was queued for, so the sweep queues each once.
    eta_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    timed_out = models.BooleanField(default=False)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("game", "turn", "seat")
        constraints = (
            models.UniqueConstraint(fields=["game", "seat", "turn"], name="one_clock_per_turn"),
        )
        indexes = (
            # The sweep's query: due clocks of turns still being played.  Partial, so the
            # index holds only the few live deadlines, not every turn ever played.
            models.Index(
                fields=["due_at"],
                name="clock_due_live",
                condition=models.Q(ended_at__isnull=True, due_at__isnull=False),
            ),
            models.Index(
                fields=["game", "seat"],
                name="clock_live_by_game",
                condition=models.Q(ended_at__isnull=True),
            ),
        )

    def __str__(self) -> str:
        return f"clock {self.game_id}/{self.seat}@{self.turn}"
