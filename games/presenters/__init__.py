"""What one seat (or a spectator) sees of a game, as template context — per game.

``PRESENTERS`` maps each key of ``games.engine.GAMES`` to its game's presentation adapter
(:class:`~games.presenters.base.Presentation`); ``games.plugins`` fills both from the
settings.  The game page view, the ``act`` view, the
replay view and the WebSocket consumer all build their context through :func:`game_context`,
so a move answered over HTTP and the same move pushed over the socket render identical HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from games import deals
from games.engine import GAMES, UnknownGame, get_game
from games.hot_reads import LOG_ACTIONS
from games.models import Action, Game, Seat
from remi_site.cached_reverse import cached_reverse

from .base import (
    Presentation,
    Viewing,
    game_title,
    once_per_game,
    read_game,
    recent_actions,
    viewable_game,
)
from .clock_view import clock_context

# What a player reads on a game ended by a tournament's organiser (adjudication or forfeit).
STOPPED = _("The organiser ended this game before its end: the match was decided.")

# Filled in place (like ``GAMES``), so a module that imported it sees the plug-ins loaded.
PRESENTERS: dict[str, Presentation] = {}


def register_presentations(presentations: Iterable[Presentation]) -> None:
    """Make ``presentations`` the registry, in their order."""
    found = {p.key: p for p in presentations}
    PRESENTERS.clear()
    PRESENTERS.update(found)


def presenter_for(key: str) -> Presentation:
    """The presentation of the game registered under ``key``."""
    presentation = PRESENTERS.get(key)
    if presentation is None:
        raise UnknownGame(key, list(GAMES))
    return presentation


def deal_context(game: Game) -> dict[str, Any]:
    """The commitment shown from the first move, and the seed once the game is over (never
    before: ``deals.revealed_seed`` is None while it is played)."""
    return {
        "commitment": game.deal_commitment,
        "revealed_seed": deals.revealed_seed(game),
        "verify_url": cached_reverse("games:game_deal", game.pk),
        "explained_url": cached_reverse("games:deal_explained"),
    }


def game_context(
    game: Game,
    seats: Sequence[Seat],
    seat: int | None,
    *,
    actions: Sequence[Action] | None = None,
    state: Any = None,
    error: str = "",
    notice: str = "",
    replay: bool = False,
) -> dict[str, Any]:
    """The template context of ``game`` for ``seat``, by the game's own presentation."""
    context = presenter_for(game.table.game_type).context(
        game,
        seats,
        seat,
        actions=actions,
        state=state,
        error=error,
        notice=notice,
        replay=replay,
    )
    context["game_title"] = once_per_game(
        game, ("title",), lambda: game_title(get_game(game.table.game_type), game)
    )
    context["rules_url"] = cached_reverse("games:rules_game", game.table.game_type)
    if not replay and game.status == Game.Status.FINISHED and not context.get("over"):
        # Stopped from outside (``services.stop_table``): the position is not over, but
        # nobody may move any more; every game's page shows it over, with why.
        context.update(over=True, my_turn=False, notice=STOPPED)
    context["deal"] = deal_context(game)
    if not replay:
        context.update(clock_context(game, seats, seat))
    context["form_version"] = "" if context.get("version") is None else context["version"]
    return context


def swapped_in(context: Mapping[str, Any]) -> dict[str, Any]:
    """``context`` for parts swapped into a page by id (``oob``: a socket's frame, an htmx
    answer).  The move forms' version fields are left blank there, since the page keeps its
    version from the status part (game-shell.js): the controls then read the same at every
    version, and a seat whose controls did not change is not sent them again."""
    return {**context, "oob": True, "form_version": ""}


__all__ = [
    "LOG_ACTIONS",
    "PRESENTERS",
    "Presentation",
    "Viewing",
    "game_context",
    "game_title",
    "presenter_for",
    "read_game",
    "recent_actions",
    "register_presentations",
    "swapped_in",
    "viewable_game",
]
