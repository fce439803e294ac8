"""Absolute links for emails, which are read far from any request."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.urls import reverse


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_link(game_id: int) -> str:
    """A link that opens the game, through the login page when the reader is logged out
    (Django's own ``?next=`` redirect, which the login view honours)."""
    game_path = reverse("games:game", args=[game_id])
    return absolute(redirect_to_login(game_path)["Location"])


def my_games_link() -> str:
    return absolute(redirect_to_login(reverse("games:my_games"))["Location"])
