"""Reading and changing a player's notification choices."""

from __future__ import annotations

from notifications.kinds import Kind
from notifications.models import Preferences


def preferences_of(user) -> Preferences:
    """The player's choices; an unsaved default row until they first save one (a page view
    writes nothing)."""
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


def wants_email(user, kind: str) -> bool:
    """Whether ``user`` asked for emails of ``kind`` (and has an address to get them at)."""
    if not user.is_active or not user.email:
        return False
    if kind == Kind.TURN:
        return bool(user.email_on_turn)
    preferences = Preferences.objects.filter(user=user).first()
    if preferences is None:
        return False
    if kind == Kind.REMINDER:
        return preferences.reminder_email
    return preferences.digest_hour is not None


def turn_off(user, kind: str) -> None:
    """Stop emails of ``kind`` for ``user`` (the unsubscribe links)."""
    if kind == Kind.TURN:
        user.email_on_turn = False
        user.save(update_fields=["email_on_turn"])
    elif kind == Kind.REMINDER:
        Preferences.objects.update_or_create(user=user, defaults={"reminder_email": False})
    elif kind == Kind.DIGEST:
        Preferences.objects.update_or_create(user=user, defaults={"digest_hour": None})
    else:
        raise ValueError(f"unknown notice kind {kind!r}")
