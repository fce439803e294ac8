"""Closing sockets when a login ends (see accounts.sockets); remembering the browsers a
player logs in from, and clearing failed-login locks after a password reset
(accounts.login_limits)."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import password_reset, user_signed_up
from allauth.account.signals import user_logged_in as allauth_user_logged_in
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts import known_devices, login_limits
from accounts.sockets import close_session_sockets, close_user_sockets

User = get_user_model()

# Set in the session that signed up: the home page then greets a newcomer, not a returner.
NEW_ACCOUNT_SESSION_KEY = "new_account"


@receiver(user_signed_up)
def note_a_new_account(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        session[NEW_ACCOUNT_SESSION_KEY] = True


@receiver(user_logged_out)
def close_sockets_of_ended_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # Sent before the session is flushed, so its key is still readable here.
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        close_session_sockets(key)


@receiver(pre_save, sender=User)
def note_login_credentials(sender: Any, instance: Any, update_fields: Any, **kwargs: Any) -> None:
    if instance.pk is None or (
        update_fields is not None
        and "password" not in update_fields
        and "is_active" not in update_fields
    ):
        instance._logins_end = False
        return
    before = sender.objects.filter(pk=instance.pk).values("password", "is_active").first()
    instance._logins_end = before is not None and (
        before["password"] != instance.password or (before["is_active"] and not instance.is_active)
    )


@receiver(post_save, sender=User)
def close_sockets_when_logins_end(sender: Any, instance: Any, **kwargs: Any) -> None:
    # A new password or a deactivated account ends every session Django's auth checks; the
    # sockets opened under them must end too.
    if getattr(instance, "_logins_end", False):
        close_user_sockets(instance.pk)


@receiver(allauth_user_logged_in)
def remember_the_browser(
    sender: Any, request: Any, response: Any, user: Any, **kwargs: Any
) -> None:
    # A browser that has logged in to an account is spared the limits a stranger could
    # otherwise use to lock the player out (accounts.login_limits).
    if response is not None:
        known_devices.remember(request, response, user.pk)


@receiver(password_reset)
def forgive_failed_logins(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    # The email link proved the account is the player's: the locks on it go.
    login_limits.forgive(request, user.pk)
