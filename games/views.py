"""Placeholder pages so the site navigation works before the lobby and games are built."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": "Lobby"})


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": "My games"})
