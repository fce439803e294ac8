"""The review page of a finished game, its step for the replay's toggle, and the hint.

No review of a game being played exists: every review URL answers 404 until the game is
over.  The hint is the only way a player gets the planner's answer during play, and only
where ``services.hint_refusal`` allows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_http_methods

from games.engine.core.numbers import parse_natural
from games.models import Game
from games.play.views import bad_step, game_for, watchable
from games.presenters import Viewing

from . import presenters, services
from .models import GameReview

if TYPE_CHECKING:
    from accounts.requests import HtmxRequest


HINT_SLOT = "reviews/hint.html"


def _finished(request: HtmxRequest, pk: int) -> Viewing:
    viewing = game_for(request, pk)
    if viewing.game.status != Game.Status.FINISHED:
        raise Http404("A game is reviewed once it is over.")
    return viewing


def _names(viewing: Viewing) -> list[str]:
    return [s.display_name for s in sorted(viewing.seats, key=lambda s: s.position)]


@require_GET
@watchable
def review(request: HtmxRequest, pk: int) -> HttpResponse:
    viewing = _finished(request, pk)
    row = services.review_for(viewing.game)
    context = {
        "game": viewing.game,
        "review": row,
        "ready": row.status == GameReview.Status.DONE,
        "failed": row.status == GameReview.Status.FAILED,
        "urls": {
            "game": viewing.game.get_absolute_url(),
            "review": request.path,
            "replay": f"{viewing.game.get_absolute_url()}replay/",
        },
        "is_player": viewing.is_player,
    }
    if row.status == GameReview.Status.DONE and row.data:
        context.update(
            rows=presenters.summary_rows(
                row.data, _names(viewing), services.hint_counts(viewing.game.pk)
            ),
            turns=presenters.own_turns(row.data, viewing.seat),
            unit=row.data["unit"],
        )
    if request.htmx:
        return render(request, "reviews/review.html#body", context)
    return render(request, "reviews/review.html", context)


@require_GET
@watchable
def review_step(request: HtmxRequest, pk: int) -> HttpResponse:
    """The viewer's turn at a replay step, beside what was played (the replay's toggle)."""
    viewing = _finished(request, pk)
    step = parse_natural(request.GET.get("step", "0"))
    if step is None:
        return bad_step()
    row = services.review_for(viewing.game)
    turn = None
    if row.status == GameReview.Status.DONE and row.data:
        turn = presenters.turn_at(row.data, viewing.seat, step)
    context = {
        "review": row,
        "ready": row.status == GameReview.Status.DONE,
        "turn": turn,
        "is_player": viewing.is_player,
        "review_url": f"{viewing.game.get_absolute_url()}review/",
    }
    return render(request, "reviews/step.html", context)


@require_GET
@watchable
def hint_counts(request: HtmxRequest, pk: int) -> HttpResponse:
    """The hints each seat asked for, for the finished game's page (public: counts only)."""
    viewing = _finished(request, pk)
    counts = services.hint_counts(viewing.game.pk)
    names = _names(viewing)
    used = [{"name": names[seat], "count": n} for seat, n in sorted(counts.items())]
    return render(request, "reviews/hint_counts.html", {"used": used})


@require_http_methods(["GET", "POST"])
@login_required
def hint(request: HtmxRequest, pk: int) -> HttpResponse:
    """GET: the Hint button, where hints are allowed (the game page loads it into its
    controls; elsewhere the answer is empty).  POST: the best play from the asker's own
    view, counted; refused with a message where hints are off."""
    viewing = game_for(request, pk)
    game = viewing.game
    if request.method == "GET":
        refusal = services.hint_refusal(game, viewing.seats, viewing.seat)
        if refusal is not None:
            return HttpResponse(status=204)
        return render(request, HINT_SLOT, {"hint_url": request.path, "asked": False})
    try:
        best, unit = services.give_hint(game, viewing.seats, viewing.seat)
    except services.HintRefused as refused:
        context = {"hint_url": request.path, "asked": True, "refusal": refused.message}
        # htmx swaps only successful answers: the refusal is said in the hint's place.
        status = 200 if request.htmx else refused.status
        return render(request, HINT_SLOT, context, status=status)
    context = {
        "hint_url": request.path,
        "asked": True,
        "best": best,
        "what": presenters.pieces_text(best.measure.pieces, unit),
        "placed": best.placed,
        "note": presenters.best_note(best.to_dict()),
    }
    return render(request, HINT_SLOT, context)
