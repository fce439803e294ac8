"""Tables, seats, games (one hand of a table's series) and the append-only action log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def new_series_seed() -> str:
    return secrets.token_hex(16)


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Pace(models.TextChoices):
        LIVE = "live", "Live"
        SLOW = "slow", "Slow (play by mail)"

    class GameType(models.TextChoices):
        REMI = "remi", "Remi Etalat"

    game_type = models.CharField(max_length=20, choices=GameType, default=GameType.REMI)
    preset = models.CharField(max_length=40, default="remi")
    rules = models.JSONField(help_text="The engine's rule options for every game of the series.")
    seat_count = models.PositiveSmallIntegerField(default=4)
    pace = models.CharField(max_length=10, choices=Pace, default=Pace.LIVE)
    move_seconds = models.PositiveIntegerField(
        default=0, help_text="Time allowed per move; 0 means no deadline."
    )
    is_public = models.BooleanField(default=True)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_tables"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN, db_index=True)
    # The series (dealer, totals) as the engine keeps it; its seed never leaves the server.
    series = models.JSONField(null=True, blank=True)
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


class Seat(models.Model):
    class Bot(models.TextChoices):
        NONE = "", "Human"
        EASY = "easy", "Bot (easy)"
        NORMAL = "normal", "Bot (normal)"
        HARD = "hard", "Bot (hard)"

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
    def display_name(self) -> str:
        if self.user_id:
            return self.user.public_name
        return f"{self.get_bot_display()} {self.position + 1}"


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(help_text="Index of this game in the series.")
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.PLAYING)
    scores = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Set on every save so the beat sweep can find bot turns nobody took (worker died,
    # message lost) without reading the state of every game.
    waiting_for_bot = models.BooleanField(default=False, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(default=timezone.now, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("table", "number")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="one_game_per_number"),
        )

    def __str__(self) -> str:
        return f"Game {self.pk} (table {self.table_id}, #{self.number + 1})"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.pk])


class Action(models.Model):
    """One applied action.  Append-only: the log replays the game from its seed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    version = models.PositiveIntegerField(help_text="The game's version after this action.")
    seat = models.PositiveSmallIntegerField()
    notation = models.CharField(max_length=200)
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("game", "version")
        constraints = (
            models.UniqueConstraint(fields=["game", "version"], name="one_action_per_version"),
        )

    def __str__(self) -> str:
        return f"{self.game_id}@{self.version}: seat {self.seat} {self.notation}"
