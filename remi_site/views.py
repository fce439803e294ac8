"""Site-level pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.templatetags.static import static

from accounts.signals import NEW_ACCOUNT_SESSION_KEY
from games.game_names import game_choices


def home(request: HttpRequest) -> HttpResponse:
    # Only the session that made the account is new; the next login is a return.
    new_account = bool(request.session.get(NEW_ACCOUNT_SESSION_KEY))
    games = game_choices()
    return render(request, "home.html", {"new_account": new_account, "games": games})


def favicon(request: HttpRequest) -> HttpResponseBase:
    """``/favicon.ico``, which browsers ask for on pages that name no icon (the admin's): the
    site's icon, wherever the static files put it."""
    return redirect(static("favicon.svg"))
