"""Ratings per player and game; tournaments with their registrations, rounds, matches and
audit log."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine import game_choices
from games.game_names import game_label
from games.models import Table
from remi_site.choices import TextChoices
from tournaments.formats.tables import MAX_SEATS, MIN_SEATS
from tournaments.rating_maths import NEW_PLAYER, PROVISIONAL_GAMES, Skill


class Rating(models.Model):
    """A player's current rating in one game of the registry."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game_type = models.CharField(max_length=20, choices=game_choices)
    mu = models.FloatField(default=NEW_PLAYER.mu)
    sigma = models.FloatField(default=NEW_PLAYER.sigma)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["user", "game_type"], name="one_rating_per_game"),
        )
        indexes = (models.Index(fields=["game_type", "-mu"], name="leaderboard"),)

    def __str__(self) -> str:
        return f"{self.user} · {self.game_type} · {self.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def shown(self) -> int:
        return self.skill.shown

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the history a chart draws."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    game_type = models.CharField(max_length=20, choices=game_choices)
    place = models.PositiveSmallIntegerField(help_text=_("Finishing place, 1 the best."))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("created_at", "pk")
        constraints = (
            # The database's guarantee that a game moves a rating once, however often the
            # code that finishes it runs.
            models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game"),
        )

    def __str__(self) -> str:
        return f"{self.user} · game {self.game_id} · {self.shown_before} → {self.shown_after}"

    @property
    def shown_before(self) -> int:
        return Skill(self.mu_before, self.sigma_before).shown

    @property
    def shown_after(self) -> int:
        return Skill(self.mu_after, self.sigma_after).shown


# --- Tournaments ----------------------------------------------------------------------------


class Tournament(models.Model):
    """An event of rounds of tables, all of one game under one set of rules.

    The tables are ordinary ``games.Table`` rows (so they show in everybody's "My games",
    clocks, bots and notifications work as anywhere); the tournament only decides who sits
    where and reads the results back (``tournaments.results``)."""

    class Format(TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        KNOCKOUT = "knockout", _("Knockout")

    class Status(TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        CLOSED = "closed", _("Registration closed")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        help_text=_("Owns the tournament's tables."),
    )
    # What every table plays: the lobby form's choices.
    game_type = models.CharField(_("game"), max_length=20, choices=game_choices)
    preset = models.CharField(_("rules preset"), max_length=40, blank=True)
    options = models.JSONField(
        _("rule options"),
        default=dict,
        blank=True,
        help_text=_("Changes to the preset's rule options, by option name."),
    )
    # A match is one table's series: the game's own series options.
    games_per_match = models.PositiveSmallIntegerField(
        _("games per match"), null=True, blank=True, default=1
    )
    target_score = models.PositiveIntegerField(_("target score"), null=True, blank=True)
    pace = models.CharField(_("pace"), max_length=10, choices=Table.Pace, default=Table.Pace.LIVE)
    move_seconds = models.PositiveIntegerField(
        _("time per move (seconds)"), default=0, help_text=_("0: no clock.")
    )
    vacation_allowed = models.BooleanField(_("vacations stop the clocks"), default=True)
    round_days = models.PositiveSmallIntegerField(
        _("days per round"),
        null=True,
        blank=True,
        help_text=_("Correspondence: a round's deadline, counted from its start."),
    )
    seat_count = models.PositiveSmallIntegerField(
        _("seats per table"),
        default=4,
        validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)],
    )
    format = models.CharField(_("format"), max_length=12, choices=Format, default=Format.SWISS)
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_(
            "Swiss: how many. Round robin and knockout: set when the first round is paired."
        ),
    )
    advance = models.PositiveSmallIntegerField(
        _("players advancing per table"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(2)],
        help_text=_("Knockout: 1, or 2 at tables of 4."),
    )
    registration_opens_at = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    min_players = models.PositiveSmallIntegerField(_("minimum players"), default=2)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), null=True, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status, default=Status.DRAFT, db_index=True
    )
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    # The field as it stood at the start, best seed first: round robin and knockout
    # schedules are rebuilt from it, so every round of them comes from one schedule.
    seeding = models.JSONField(default=list, blank=True)
    # A round robin's whole schedule, fixed with the field at round 1 (a list of rounds, each
    # {"tables": [[user ids]], "byes": [user ids]}): kept, not searched for again each
    # round, so later rounds cost nothing and a newer search can never change them.
    schedule = models.JSONField(default=list, blank=True)
    # The last computed standings (tournaments.standings writes them with every result).
    standings = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def game_label(self) -> str:
        return game_label(self.game_type)

    @property
    def registration_open(self) -> bool:
        return self.status == self.Status.REGISTRATION

    def group_name(self) -> str:
        return f"tournament-{self.pk}"


class Registration(models.Model):
    class Status(TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "created_at", "pk")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "user"], name="one_registration"),
        )

    def __str__(self) -> str:
        return f"{self.user} · {self.tournament}"


class Round(models.Model):
    class Status(TextChoices):
        # Paired and shown to the organiser; no table exists yet.
        PROPOSED = "proposed", _("Pairing to confirm")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.PROPOSED)
    # User ids sitting the round out.
    byes = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Set by the beat sweep when the deadline passed with matches unfinished.
    needs_adjudication = models.BooleanField(default=False)
    reminded_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("tournament", "number")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class Match(models.Model):
    """One table of a round: its players in seat order and, once known, their result."""

    class Status(TextChoices):
        PROPOSED = "proposed", _("Paired")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        # A withdrawn player's match that was never played.
        DROPPED = "dropped", _("Dropped")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    index = models.PositiveSmallIntegerField(
        help_text=_("The table's number in its round, from 0.")
    )
    # User ids in seat order (seat 0 first).
    players = models.JSONField(default=list)
    table = models.OneToOneField(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_match",
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.PROPOSED)
    # Per seat: finishing place (1 best, equal for a shared place) and series total.
    places = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    # A result the organiser decided (adjudication at a deadline, an override) rather than
    # the table's own end.
    adjudicated = models.BooleanField(default=False)
    overridden = models.BooleanField(default=False)
    # An adjudication waiting for the organiser's confirmation: {"rule", "places", "scores"}.
    proposed_result = models.JSONField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "index")
        verbose_name_plural = "matches"
        constraints = (
            models.UniqueConstraint(fields=["round", "index"], name="one_match_per_index"),
        )

    def __str__(self) -> str:
        return f"{self.round} · table {self.index + 1}"

    @property
    def seated_table(self) -> Table:
        """The match's table, for the code that runs once the match is seated (a match being
        played or finished has one; only deleting the table clears it)."""
        if self.table is None:
            raise ValueError(f"match {self.pk} has no table")
        return self.table


class AuditEntry(models.Model):
    """Something an organiser did to a tournament, with who, when and why."""

    class Kind(TextChoices):
        STATUS = "status", _("Status")
        REGISTRATION = "registration", _("Registration")
        PAIRING = "pairing", _("Pairing")
        ADJUDICATION = "adjudication", _("Adjudication")
        OVERRIDE = "override", _("Result override")
        WITHDRAWAL = "withdrawal", _("Withdrawal")
        REPLACEMENT = "replacement", _("Replaced by a bot")
        STANDINGS = "standings", _("Standings")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    kind = models.CharField(max_length=15, choices=Kind)
    what = models.TextField()
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor}: {self.what}"
