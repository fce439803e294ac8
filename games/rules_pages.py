"""The rules pages: how to play each game of the registry, in the viewer's language.

The words are in the templates (``rules/<key>.html``, in the game plug-in's own ``templates``
folder or the project's); the
game's presentation gives them the example melds they draw and the few numbers its engine
defines (``Presentation.rules_context``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import GAMES
from games.game_names import game_label
from games.presenters import presenter_for


def _games() -> list[dict[str, str]]:
    return [{"key": key, "name": game_label(key)} for key in GAMES]


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"games": _games()})


def rules_game(request: HttpRequest, key: str) -> HttpResponse:
    if key not in GAMES:
        raise Http404(key)
    context = {
        "key": key,
        "name": game_label(key),
        "games": _games(),
        "ex": {},
        **presenter_for(key).rules_context(),
    }
    return render(request, f"rules/{key}.html", context)
