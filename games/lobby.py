"""Lobby and table views.  SCAFFOLD: being built now (issue 4); placeholders keep the URL
conf importable until then."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": "Lobby"})


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/coming_soon.html", {"title": "My games"})


def _not_yet(request: HttpRequest, **kwargs: object) -> HttpResponse:
    raise Http404("Not built yet.")


create_table = table_detail = join = leave = start = join_by_invite = _not_yet
