"""The game page: showing a game, making moves, arranging the rack, the next game, replays.

Every move goes through :func:`games.play.services.play`; these views only turn form fields into
the engine's notation and render what the presenter builds.  Answers to htmx requests are the
same out-of-band partials the WebSocket consumer pushes, so both paths show identical HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from games import presenters
from games.engine.core.numbers import parse_natural
from games.models import Action, Game, Seat
from games.play import live_views, moves, news, page_tabs, services
from games.play.moves import MOVED_ON

if TYPE_CHECKING:
    from accounts.requests import HtmxRequest


# Longer than any selection a rack of tiles can make.
MAX_SELECTION_TEXT = 400


# --- Fetching a game ------------------------------------------------------------------------


def game_for(request: HttpRequest, pk: int, *, lock: bool = False) -> presenters.Viewing:
    """The game and the user's seat; 404 when it does not exist or is not theirs to see (a
    private table's game is not even admitted to exist).  ``lock``: read for update."""
    viewing = presenters.viewable_game(pk, request.user, lock=lock)
    if viewing is None:
        raise Http404("No such game.")
    return viewing


def watchable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the pages a visitor (not logged in) may watch: a public table's game as a
    spectator.  Anything else sends the visitor to log in, whether the game exists or not,
    as ``login_required`` did."""

    @wraps(view)
    def wrapper(request: HtmxRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and presenters.viewable_game(pk, None) is None:
            return redirect_to_login(request.get_full_path())
        return view(request, pk, *args, **kwargs)

    return wrapper


def _context(viewing: presenters.Viewing, **extra: Any) -> dict[str, Any]:
    return presenters.game_context(viewing.game, viewing.seats, viewing.seat, **extra)


def _presentation(viewing: presenters.Viewing) -> presenters.Presentation:
    return presenters.presenter_for(viewing.game.table.game_type)


def _render_updates(
    request: HtmxRequest, viewing: presenters.Viewing, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """htmx gets every part as an out-of-band swap (what the socket sends); a plain request
    gets the whole page."""
    template = _presentation(viewing).template
    if request.htmx:
        return render(request, f"{template}#updates", presenters.swapped_in(context), status=status)
    return render(request, template, context, status=status)


# --- Views ----------------------------------------------------------------------------------


@require_GET
@watchable
def game(request: HtmxRequest, pk: int) -> HttpResponse:
    viewing = game_for(request, pk)
    context = _context(viewing)
    if request.htmx:
        return _render_updates(request, viewing, context)
    return render(request, _presentation(viewing).template, context)


@require_POST
@login_required
def act(request: HtmxRequest, pk: int) -> HttpResponse:
    """Make a move (``games.play.moves``; the game page's socket takes the same fields).  Refusals
    answer 200 with their sentence beside the controls, since htmx swaps a 200 as it is and a
    refused move is an ordinary part of play; form data no page could send answers 400 with
    the fresh position."""
    answer = moves.submit(
        pk,
        request.user,
        request.POST,
        # Only an htmx request is answered with the position its page then shows.
        answered_tab=page_tabs.answered_tab(request) if request.htmx else "",
    )
    if answer is None:
        raise Http404("No such game.")
    if answer.played is not None and not request.htmx:
        return redirect("games:game", pk=pk)
    if request.htmx:
        context = presenters.swapped_in(answer.context)
        response = render(
            request, f"{answer.template}#{answer.part}", context, status=answer.status
        )
    else:
        response = render(request, answer.template, answer.context, status=answer.status)
    if answer.played is not None:
        # The page clears the player's selection only once the move is in.
        return trigger_client_event(response, "remi:acted")
    return response


@require_POST
@login_required
def arrange_rack(request: HtmxRequest, pk: int) -> HttpResponse:
    """Save the player's order of their own rack; it must be exactly the tiles they hold."""
    viewing = game_for(request, pk)
    if viewing.seat is None:
        raise PermissionDenied("Only players have a rack.")
    try:
        order = _presentation(viewing).rack_order(request.POST, viewing.game, viewing.seat)
    except ValueError as problem:
        return HttpResponse(str(problem), status=400, content_type="text/plain")
    Seat.objects.filter(table_id=viewing.game.table_id, position=viewing.seat).update(
        rack_order=order
    )
    live_views.SHARED.forget_seat(viewing.game.pk, viewing.seat)
    return HttpResponse(status=204)


@require_POST
@login_required
def draft(request: HtmxRequest, pk: int) -> HttpResponse:
    """Save the player's draft of their turn (a game that composes turns on one) and answer
    with it judged.  The draft is kept on the player's own seat and rendered for that seat
    alone; the other seats only hear that the player is arranging."""
    viewing = game_for(request, pk)
    presentation = _presentation(viewing)
    if not presentation.drafts:
        raise Http404("This game has no draft.")
    if viewing.seat is None:
        raise PermissionDenied("Only the player whose turn it is has a draft.")
    version = parse_natural(request.POST.get("version", ""))
    if version != viewing.game.version:
        return _render_updates(request, viewing, _context(viewing, notice=MOVED_ON))
    try:
        saved = presentation.draft(request.POST, viewing.game, viewing.seat)
    except ValueError as problem:
        context = _context(viewing, error=str(problem))
        return _render_updates(request, viewing, context, status=400)
    Seat.objects.filter(table_id=viewing.game.table_id, position=viewing.seat).update(
        rack_order=saved
    )
    live_views.SHARED.forget_seat(viewing.game.pk, viewing.seat)
    for seat in viewing.seats:
        if seat.position == viewing.seat:
            seat.rack_order = saved
    engine = services.game_of(viewing.game.table)
    # The name goes with the note, so no socket reads the game to say whose it is.
    name = engine.ctx(engine.load(viewing.game.state)).seats[viewing.seat]
    news.publish(
        news.group_name(pk),
        {
            "type": "game.arranging",
            "seat": viewing.seat,
            "version": viewing.game.version,
            "name": name,
        },
    )
    context = _context(viewing)
    template = presentation.template
    if request.htmx:
        return render(request, f"{template}#draft", presenters.swapped_in(context))
    return redirect("games:game", pk=pk)


@require_GET
@login_required
def meld_total(request: HtmxRequest, pk: int) -> HttpResponse:
    """What the player's selection (``tiles``, meld groups as the page writes them) is worth
    toward their first melds, as the line the page shows beside it."""
    viewing = game_for(request, pk)
    if viewing.seat is None:
        raise PermissionDenied("Only the players have a selection.")
    text = request.GET.get("tiles", "")
    if len(text) > MAX_SELECTION_TEXT:
        return HttpResponseBadRequest("The selection is too long.")
    total = _presentation(viewing).meld_total(text, viewing.game, viewing.seat)
    context: dict[str, object] = {"url": request.path, "tiles": text}
    if total is None:
        # The first melds are made (or the game is over): a count asked for just before
        # then is answered by putting the count away, not with an error.
        context["done"] = True
    else:
        context["points"], context["needed"] = total
    return render(request, "games/includes/meld_total.html", context)


@require_GET
@watchable
def replay(request: HtmxRequest, pk: int) -> HttpResponse:
    """A finished game, action by action: the position after the first ``step`` actions,
    rebuilt from the seed with the engine.  A player of the game sees their own rack (and
    their own draws in the log) at each step, never anyone else's; a spectator sees none."""
    viewing = game_for(request, pk)
    finished = viewing.game
    if finished.status != Game.Status.FINISHED:
        raise Http404("Only a finished game can be replayed.")
    actions = list(
        Action.objects.filter(game=finished)
        .order_by("version")
        .only("version", "seat", "notation", "events", "cause", "created_at")
    )
    step = parse_natural(request.GET.get("step", "0"))
    if step is None:
        return bad_step()
    step = min(step, len(actions))

    engine = services.game_of(finished.table)
    presentation = _presentation(viewing)
    final = engine.load(finished.state)
    ctx = engine.ctx(final)
    problem = ""
    try:
        state = engine.replay(
            engine.rules_of(final),
            list(ctx.seats),
            ctx.seed,
            [(action.seat, action.notation) for action in actions[:step]],
            dealer=ctx.dealer,
        )
    except ValueError as error:
        # A log the engine no longer accepts (rules fixed since it was played).
        why = presentation.refusal_text(error, finished)
        problem = _("This game can no longer be replayed past this point: %(why)s") % {"why": why}
        if finished.engine_version != engine.engine_version:
            problem += " " + _(
                "(it was played under rules version %(played)s; the site now plays version %(now)s)"
            ) % {"played": finished.engine_version, "now": engine.engine_version}
        state = final
    context = presenters.game_context(
        finished,
        viewing.seats,
        viewing.seat,
        actions=actions[max(0, step - presenters.LOG_ACTIONS) : step],
        state=state,
        replay=True,
    )
    context.update(
        step=step,
        steps=len(actions),
        step_lines=context["log"][0]["lines"] if step and context["log"] else [],
        problem=problem,
        **presentation.replay_context(final),
        **presentation.replay_page(),
    )
    if request.htmx:
        return render(request, f"{presentation.replay_template}#step", context)
    return render(request, presentation.replay_template, context)


def bad_step() -> HttpResponse:
    """A replay's or review's ``?step=`` that is not a move number: said in the page's
    language, with what to do."""
    return HttpResponse(
        _("The step must be a move number written in digits, such as ?step=12."),
        status=400,
        content_type="text/plain; charset=utf-8",
    )
