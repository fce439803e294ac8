"""A player's notification choices, and one row per notice so none is ever sent twice."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from notifications.kinds import Kind

HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]


class Preferences(models.Model):
    """Created the first time it is needed (:func:`notifications.preferences.preferences_of`).

    The "your turn" email is ``User.email_on_turn`` (the profile's original checkbox), so it
    has no column here.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    reminder_email = models.BooleanField(
        _("email me when the time for a move is running out"), default=False
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("daily digest of the games waiting for me"),
        choices=HOURS,
        null=True,
        blank=True,
        db_index=True,
        help_text=_("Sent at this hour of your time zone; empty means no digest."),
    )

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"Notification preferences of {self.user}"


class Notice(models.Model):
    """One notice owed to a player, claimed before it is sent.

    The unique keys are what make a notice go out once: a duplicate task, a retry after
    success or a second sweep finds the row already sent. A turn notice is keyed by game,
    seat and turn (the version the turn started at, or the time it started); a digest by
    player and day.
    """

    kind = models.CharField(max_length=10, choices=Kind)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn = models.CharField(max_length=40, blank=True, default="")
    day = models.DateField(null=True, blank=True)
    # What a notice shown on the player's pages says beyond its game (a round's number and
    # tournament), put into words in the reader's language when it is shown.
    params = models.JSONField(default=dict, blank=True)
    # Set while a worker is sending; a worker that died mid-send leaves it, and after a lease
    # another may take over.
    sending_since = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    emailed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=["game", "seat", "turn", "kind"],
                condition=models.Q(game__isnull=False),
                name="one_notice_per_turn_and_kind",
            ),
            models.UniqueConstraint(
                fields=["user", "day", "kind"],
                condition=models.Q(day__isnull=False),
                name="one_notice_per_day_and_kind",
            ),
        )

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} ({self.game_id}/{self.seat}/{self.turn}{self.day})"
