from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.engine import GAMES
from games.game_names import game_choices
from games.models import default_game_type
from tournaments.leaderboard import leaderboard


def leaderboard_default(request: HttpRequest) -> HttpResponse:
    return redirect("tournaments:leaderboard", game_type=default_game_type())


def leaderboard_of(request: HttpRequest, game_type: str) -> HttpResponse:
    if game_type not in GAMES:
        raise Http404("No such game.")
    context = {"board": leaderboard(game_type), "games": game_choices()}
    return render(request, "tournaments/leaderboard.html", context)
