"""Puts the waiting-games badge on every page for a logged-in player."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notifications.badge import waiting_for


def waiting_games(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Lazy: a page that never shows the navigation (htmx partials) costs no query.
    return {"waiting_games": SimpleLazyObject(lambda: waiting_for(user))}
