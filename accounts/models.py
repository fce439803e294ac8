"""The site's user model, custom from the first migration so fields can be added later."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown to other players at the table. Leave empty to use your username."),
    )
    preferred_language = models.CharField(
        _("preferred language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The site's language when you are logged in."),
    )
    email_on_turn = models.BooleanField(
        _("email me when it is my turn in a slow game"),
        default=False,
    )

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name


def display_name_of(user: User) -> str:
    """allauth's ACCOUNT_USER_DISPLAY: how a user is named in its pages and emails."""
    return user.public_name
