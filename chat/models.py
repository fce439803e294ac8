"""Table chat: messages kept with their game, a player's mutes, and the moderators' bans."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from chat.phrases import PHRASES
from remi_site.choices import TextChoices

MAX_LENGTH = 200


class Room(TextChoices):
    # During play each side talks among itself (a spectator could otherwise coach a
    # player); once the game is over both rooms are shown to everyone.
    PLAYERS = "players", _("Players")
    SPECTATORS = "spectators", _("Spectators")


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(max_length=10, choices=Room)
    # A quick phrase is kept by its code, so each reader sees it in their own language.
    phrase = models.CharField(max_length=12, blank=True, choices=[(k, k) for k in PHRASES])
    text = models.CharField(max_length=MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # Removed by a moderator: kept for the record, shown to nobody.
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("created_at", "pk")
        indexes = (models.Index(fields=["game", "room", "created_at"]),)

    def __str__(self) -> str:
        return f"{self.author} in game {self.game_id}: {self.text or self.phrase}"

    def get_phrase_text(self) -> str:
        return str(PHRASES.get(self.phrase, ""))


class ChatMute(models.Model):
    """``user`` no longer sees what ``muted`` writes, at any table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair"),)

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class ChatBan(models.Model):
    """A moderator's ban: the user may read the chat but no longer write in it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_ban"
    )
    reason = models.CharField(max_length=200)
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.reason}"
