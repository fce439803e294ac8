"""A player's move as a game page sends it, from either door: the ``act`` view (HTTP, for
pages without script, keyboard fallbacks and scripts of our own) and the game page's open
socket (``consumers.GameConsumer``).  Both hand the form's fields here; the fields are read by
the game's own form, the move goes through :func:`games.play.services.play_locked`, and the answer
says what the mover's page shows next, so the two doors refuse and answer alike.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy

from games import presenters
from games.engine import IllegalAction, InvalidAction
from games.models import Game
from games.play import live_views, services
from games.presenters.base import form_problem, read_once_each

# Said in the language of whoever's page is answered (they were plain English strings).
MOVED_ON = gettext_lazy("The game has moved on: here is the current position.")
WATCHING = gettext_lazy("You are watching: only the players can move.")

# What the mover's page redraws: every part, or only the controls (a refusal changes nothing
# else).
UPDATES = "updates"
CONTROLS = "controls"


@dataclass
class Answer:
    """What the mover's page is sent: ``part`` of the game's template drawn with ``context``
    (the HTTP status for the ``act`` view); ``played`` when the move went in.  The context of
    a move that went in is built when first asked for: the socket answers from the parts
    already rendered in the move's hop, and never needs it."""

    viewing: presenters.Viewing
    given: dict[str, Any] | None
    part: str
    status: int = 200
    played: services.Played | None = None
    shown: live_views.Snapshot | None = None

    @property
    def template(self) -> str:
        return presenters.presenter_for(self.viewing.game.table.game_type).template

    @functools.cached_property
    def context(self) -> dict[str, Any]:
        if self.given is not None:
            return self.given
        assert self.shown is not None
        viewing = self.viewing
        return presenters.game_context(
            viewing.game,
            viewing.seats,
            viewing.seat,
            actions=self.shown.actions,
            state=self.shown.state,
        )


def _answer(viewing: presenters.Viewing, part: str, status: int = 200, **extra: Any) -> Answer:
    context = presenters.game_context(viewing.game, viewing.seats, viewing.seat, **extra)
    return Answer(viewing, context, part, status)


def submit(
    game_id: int, user: Any, data: Mapping[str, Any], *, answered_tab: str = ""
) -> Answer | None:
    """Play the move in ``data`` (the action form's fields) for ``user``'s seat.  None when
    the user may not see the game (the caller answers as for no game at all).

    The game is read for update and the move made in one transaction, so the game and its
    seats are read once for the checks and the move.  A refusal leaves the transaction by its
    exception, which undoes whatever the move had begun to write."""
    kept: list[live_views.Snapshot] = []

    def keep_for_sockets(played: services.Played) -> None:
        # Before the sockets of this process hear of the move: they render it from here
        # rather than each process reading it back.
        snapshot = live_views.snapshot_after(played)
        live_views.SHARED.prime(snapshot)
        kept.append(snapshot)
        # In this same hop, each viewer with a socket here gets its parts rendered, so that
        # its socket sends them as soon as the news comes, without a hop of its own.
        live_views.SHARED.prerender(snapshot, mover=played.action.seat)

    viewing: presenters.Viewing | None = None
    presentation: presenters.Presentation | None = None
    try:
        with transaction.atomic():
            viewing = presenters.viewable_game(game_id, user, lock=True)
            if viewing is None:
                return None
            if viewing.seat is None:
                return _answer(viewing, CONTROLS, 403, error=WATCHING)
            presentation = presenters.presenter_for(viewing.game.table.game_type)
            form = presentation.action_form(data)
            if not read_once_each(form):
                return _answer(viewing, UPDATES, 400, error=form_problem(form))
            fields = form.cleaned_data
            if fields["version"] != viewing.game.version:
                # The whole position: the player chose the move looking at an old one.
                return _answer(viewing, UPDATES, notice=MOVED_ON)
            played = services.play_locked(
                viewing.game,
                {s.position: s for s in viewing.seats},
                viewing.seat,
                presentation.notation(fields, viewing.game),
                fields["version"],
                answered_tab=answered_tab,
                before_news=keep_for_sockets,
            )
    except services.GameMovedOn:
        assert viewing is not None
        fresh = Game.objects.select_related("table").get(pk=game_id)
        moved = presenters.Viewing(fresh, viewing.seats, viewing.seat)
        return _answer(moved, UPDATES, notice=MOVED_ON)
    except services.SeatHandedOver as handed:
        assert viewing is not None
        return _answer(viewing, CONTROLS, error=str(handed))
    except (IllegalAction, InvalidAction) as refusal:
        # NotYourTurn is an IllegalAction.  Nothing changed, so only the controls are redrawn.
        assert viewing is not None and presentation is not None
        error = presentation.refusal_text(refusal, viewing.game)
        return _answer(viewing, CONTROLS, error=error)
    shown = kept[0] if kept else live_views.snapshot_of(played.game, played.seats, played.state)
    after = presenters.Viewing(played.game, shown.seats, viewing.seat)
    return Answer(after, None, UPDATES, played=played, shown=shown)
