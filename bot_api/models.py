"""The Bot API's own records: the tokens a bot account's owner makes, and the invitations
people send bot accounts to sit at their tables.  A bot account itself is a user with
``is_bot`` set (accounts.models.User)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from remi_site.choices import TextChoices


class BotToken(models.Model):
    """An API token: only its SHA-256 is kept, so a leaked database row plays no games.  The
    token itself is shown once, when it is made; ``prefix`` (its first characters) lets the
    owner tell tokens apart in the list."""

    # The token's hash says nothing a person could use, but the admin need not list it.
    hidden_information_fields = ("key_hash",)

    class Scope(TextChoices):
        # The only scope there is: play the account's games.  Kept as a field so a token made
        # today never silently gains a power added later.
        PLAY = "play", _("Play games")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    scope = models.CharField(max_length=10, choices=Scope, default=Scope.PLAY)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Invitation(models.Model):
    """A table's owner asks a bot account to take a seat at an open table (the Bot API's
    "challenge"): the bot accepts (it is seated) or declines."""

    class Status(TextChoices):
        PENDING = "pending", _("Waiting for the bot")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="bot_invites")
    bot = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        constraints = (
            models.UniqueConstraint(
                fields=["table", "bot"],
                name="one_pending_invitation",
                condition=models.Q(status="pending"),
            ),
        )

    def __str__(self) -> str:
        return f"Invitation {self.pk} to table {self.table_id}"


class BotPolicy(models.Model):
    """A table's rules for bot accounts (none: the defaults below).  Rated play between bot
    accounts and people only where the table's owner allowed it."""

    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="bot_policy", primary_key=True
    )
    rated_with_bots = models.BooleanField(
        _("bot accounts may sit at this rated table"), default=False
    )

    class Meta:
        verbose_name_plural = "bot policies"

    def __str__(self) -> str:
        return f"Bot policy of table {self.table_id}"


class TournamentBotPolicy(models.Model):
    """Whether a tournament admits bot accounts (none: it refuses them)."""

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="bot_policy",
        primary_key=True,
    )
    admit_bot_accounts = models.BooleanField(_("bot accounts may register"), default=False)

    class Meta:
        verbose_name_plural = "tournament bot policies"

    def __str__(self) -> str:
        return f"Bot policy of tournament {self.tournament_id}"


def tournament_admits_bots(tournament) -> bool:
    return TournamentBotPolicy.objects.filter(
        tournament=tournament, admit_bot_accounts=True
    ).exists()
