"""A finished game's review (computed once by the worker, kept with the game) and the hints
asked for at casual tables."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from remi_site.choices import TextChoices


class GameReview(models.Model):
    class Status(TextChoices):
        PENDING = "pending", _("Waiting for the worker")
        RUNNING = "running", _("Being computed")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Could not be computed")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="review")
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    # Moves of the log walked so far, of ``moves`` in all: the page's progress bar.
    walked = models.PositiveIntegerField(default=0)
    moves = models.PositiveIntegerField(default=0)
    # ``games.engine.core.review.Review.to_dict()``: every seat's turns, racks included, so
    # the views hand each seat only its own turns (see reviews/presenters.py).
    data = models.JSONField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0)
    problem = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # When its task was last sent: a page that finds it still waiting long after sends it
    # again, at most once per ``services.RESEND_AFTER``.
    sent_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.status})"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return 0 if not self.moves else min(99, 100 * self.walked // self.moves)


class Hint(models.Model):
    """One hint given: to one seat at one version of the game (asking again at the same
    version gives the same answer and counts once)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="hints")
    seat = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["game", "seat", "version"], name="one_hint_a_move"),
        )

    def __str__(self) -> str:
        return f"hint for seat {self.seat} of game {self.game_id} at {self.version}"
