"""The game page: showing a game, making moves, arranging the rack, the next game, replays.

Every move goes through :func:`games.services.play`; these views only turn form fields into
the engine's notation and render what the presenter builds.  Answers to htmx requests are the
same out-of-band partials the WebSocket consumer pushes, so both paths show identical HTML.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from games import engine, presenters, services
from games.engine.state import State
from games.models import Action, Game, Seat

TEMPLATE = "games/game.html"
REPLAY_TEMPLATE = "games/replay.html"

BARE_VERBS = ("draw", "take", "exposed", "declare", "ready", "undo")
VERBS = (*BARE_VERBS, "pick", "meld", "add", "swap", "discard", "doubla", "exchange", "notation")

# One tile, a Joly with the tile it stands for, or the bar between two melds.
TILE_WORD = re.compile(r"^(?:[RYBK](?:[1-9]|1[0-3])|J(?:=[RYBK](?:[1-9]|1[0-3]))?|\|)$")
MAX_NOTATION = 200  # the Action log's column; no legal move comes near it

MOVED_ON = "The game has moved on: here is the current position."


# --- Fetching a game ------------------------------------------------------------------------


def _game_for(request: HttpRequest, pk: int) -> presenters.Viewing:
    """The game and the user's seat; 404 when it does not exist or is not theirs to see (a
    private table's game is not even admitted to exist)."""
    viewing = presenters.viewable_game(pk, request.user)
    if viewing is None:
        raise Http404("No such game.")
    return viewing


def _context(viewing: presenters.Viewing, **extra: Any) -> dict[str, Any]:
    return presenters.game_context(viewing.game, viewing.seats, viewing.seat, **extra)


def _render_updates(
    request: HttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """htmx gets every part as an out-of-band swap (what the socket sends); a plain request
    gets the whole page."""
    if request.htmx:
        return render(request, f"{TEMPLATE}#updates", {**context, "oob": True}, status=status)
    return render(request, TEMPLATE, context, status=status)


def _render_controls(
    request: HttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    if request.htmx:
        return render(request, f"{TEMPLATE}#controls", {**context, "oob": True}, status=status)
    return render(request, TEMPLATE, context, status=status)


# --- Forms ----------------------------------------------------------------------------------


class ActionForm(forms.Form):
    """The fields the game page posts: a verb with the selected tiles, meld and row tile, or a
    move typed in notation.  Anything a page could not have sent fails here (400)."""

    version = forms.IntegerField(min_value=0)
    verb = forms.ChoiceField(choices=[(v, v) for v in VERBS])
    notation = forms.CharField(max_length=MAX_NOTATION, required=False)
    tiles = forms.CharField(max_length=MAX_NOTATION, required=False)
    meld = forms.IntegerField(min_value=0, max_value=999, required=False)
    row = forms.IntegerField(min_value=0, max_value=999, required=False)
    seat = forms.IntegerField(min_value=0, max_value=3, required=False)
    label = forms.ChoiceField(
        choices=[("", "none"), ("low", "low"), ("high", "high")], required=False
    )

    def clean_tiles(self) -> list[list[str]]:
        """The selection as melds of tile words (a bar separates melds)."""
        words = self.cleaned_data["tiles"].replace("|", " | ").upper().split()
        if any(not TILE_WORD.match(word) for word in words):
            raise forms.ValidationError("The selected tiles are not tiles.")
        groups: list[list[str]] = [[]]
        for word in words:
            if word == "|":
                groups.append([])
            else:
                groups[-1].append(word)
        return [group for group in groups if group]


class RackForm(forms.Form):
    order = forms.CharField(max_length=400)

    def clean_order(self) -> list[str]:
        words = self.cleaned_data["order"].upper().split()
        if any(not TILE_WORD.match(w) or "=" in w or w == "|" for w in words):
            raise forms.ValidationError("The order names something that is not a tile.")
        return words


def _problem(form: forms.Form) -> str:
    """One sentence from a form's errors, for the error area."""
    parts = []
    for field, errors in form.errors.items():
        name = "" if field == "__all__" else f"{field}: "
        parts.append(name + " ".join(str(e) for e in errors))
    return "That move could not be read (" + "; ".join(parts) + ")."


def _notation(data: dict[str, Any], state: dict[str, Any]) -> str:
    """The engine's notation for what the page sent.  A selection that cannot make the move
    is the player's slip, said as an InvalidAction like the engine's own refusals."""
    verb = data["verb"]
    groups: list[list[str]] = data["tiles"]
    flat = [tile for group in groups for tile in group]
    if verb == "notation":
        text = data["notation"].strip()
        if not text:
            raise engine.InvalidAction("Type a move, for example 'meld R1 R2 R3'.")
        return text
    if verb in BARE_VERBS:
        return verb
    if verb == "discard":
        if len(flat) != 1:
            raise engine.InvalidAction("Select the one tile to discard.")
        return f"discard {flat[0]}"
    if verb == "meld":
        if not flat:
            raise engine.InvalidAction(
                "Select the tiles to meld (press New group between two melds)."
            )
        return "meld " + " | ".join(" ".join(group) for group in groups)
    if verb == "add":
        if data["meld"] is None or not flat:
            raise engine.InvalidAction("Click a meld on the table, then select the tiles to add.")
        return f"add {data['meld']} {' '.join(flat)}"
    if verb == "swap":
        if data["meld"] is None or len(groups) != 2:
            raise engine.InvalidAction(
                "Click the meld with the Joly, select the tile(s) that replace it, press New "
                "group, then select the tiles to meld the Joly with."
            )
        replacement, partners = groups
        return f"swap {data['meld']} {' '.join(replacement)} into J {' '.join(partners)}"
    if verb == "pick":
        row = str(state.get("discards", "")).split()
        index = data["row"]
        if index is None or not 0 <= index < len(row) or len(flat) != 2:
            raise engine.InvalidAction(
                "Click a tile in the discard row, then select two of your tiles that meld with it."
            )
        return f"pick {index} {row[index]} {flat[0]} {flat[1]}"
    if verb == "doubla":
        if not flat or len(set(flat)) != 1:
            raise engine.InvalidAction("Select the tile you hold twice.")
        return f"doubla {flat[0]}" + (f" {data['label']}" if data["label"] else "")
    if verb == "exchange":
        if data["seat"] is None:
            raise engine.InvalidAction("Choose whom to exchange doublas with.")
        return f"exchange {data['seat']}"
    raise engine.InvalidAction(f"Unknown action '{verb}'.")  # VERBS and this list agree


# --- Views ----------------------------------------------------------------------------------


@require_GET
@login_required
def game(request: HttpRequest, pk: int) -> HttpResponse:
    viewing = _game_for(request, pk)
    context = _context(viewing)
    if request.htmx:
        return _render_updates(request, context)
    return render(request, TEMPLATE, context)


@require_POST
@login_required
def act(request: HttpRequest, pk: int) -> HttpResponse:
    """Make a move.  Refusals answer 200 with the engine's message beside the controls, since
    htmx swaps a 200 as it is and a refused move is an ordinary part of play; form data no page
    could send answers 400 with the fresh position."""
    viewing = _game_for(request, pk)
    if viewing.seat is None:
        context = _context(viewing, error="You are watching: only the players can move.")
        return _render_controls(request, context, status=403)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _render_updates(request, _context(viewing, error=_problem(form)), status=400)
    data = form.cleaned_data
    if data["version"] != viewing.game.version:
        # Answer with the whole position: the player chose the move looking at an old one.
        return _render_updates(request, _context(viewing, notice=MOVED_ON))
    try:
        notation = _notation(data, viewing.game.state)
        played = services.play(pk, viewing.seat, notation, data["version"])
    except services.GameMovedOn:
        fresh = Game.objects.select_related("table").get(pk=pk)
        moved = presenters.Viewing(fresh, viewing.seats, viewing.seat)
        return _render_updates(request, _context(moved, notice=MOVED_ON))
    except (engine.IllegalAction, engine.InvalidAction) as refusal:
        # NotYourTurn is an IllegalAction.  Nothing changed, so only the controls are redrawn.
        return _render_controls(request, _context(viewing, error=str(refusal)))
    if not request.htmx:
        return redirect("games:game", pk=pk)
    after = presenters.Viewing(played.game, viewing.seats, viewing.seat)
    response = _render_updates(request, _context(after))
    # The page clears the player's selection only once the move is in.
    return trigger_client_event(response, "remi:acted")


@require_POST
@login_required
def arrange_rack(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the player's order of their own rack; it must be exactly the tiles they hold."""
    viewing = _game_for(request, pk)
    if viewing.seat is None:
        raise PermissionDenied("Only players have a rack.")
    form = RackForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_problem(form), status=400, content_type="text/plain")
    order: list[str] = form.cleaned_data["order"]
    racks = viewing.game.state.get("racks", [])
    held = str(racks[viewing.seat]).split() if viewing.seat < len(racks) else []
    if Counter(order) != Counter(held):
        return HttpResponse(
            "That order is not the tiles on your rack.", status=400, content_type="text/plain"
        )
    Seat.objects.filter(table_id=viewing.game.table_id, position=viewing.seat).update(
        rack_order=presenters.order_to_save(order, viewing.game.pk)
    )
    return HttpResponse(status=204)


@require_POST
@login_required
def next_game(request: HttpRequest, pk: int) -> HttpResponse:
    viewing = _game_for(request, pk)
    if viewing.seat is None:
        raise PermissionDenied("Only the players deal the next game.")
    try:
        new = services.next_game(viewing.game.table)
    except services.TableError as error:
        messages.error(request, str(error))
        url = viewing.game.get_absolute_url()
    else:
        url = new.get_absolute_url()
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_GET
@login_required
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game, action by action: the public view after the first ``step`` actions,
    rebuilt from the seed with the engine (the seed itself never leaves the server)."""
    viewing = _game_for(request, pk)
    finished = viewing.game
    if finished.status != Game.Status.FINISHED:
        raise Http404("Only a finished game can be replayed.")
    actions = list(
        Action.objects.filter(game=finished)
        .order_by("version")
        .only("version", "seat", "notation", "events")
    )
    raw_step = request.GET.get("step", "0")
    if not raw_step.isdigit() or len(raw_step) > 6:
        return HttpResponse("The step is a number.", status=400, content_type="text/plain")
    step = min(int(raw_step), len(actions))

    final = State.from_dict(finished.state)
    problem = ""
    try:
        state = engine.new_game(final.rules, final.seats, final.seed, final.dealer)
        for action in actions[:step]:
            state, _ = engine.apply(state, action.seat, action.notation)
    except ValueError as error:
        # A log the engine no longer accepts (rules fixed since it was played).
        problem = f"This game can no longer be replayed past this point: {error}"
        state = final
    context = presenters.game_context(
        finished,
        viewing.seats,
        None,
        actions=actions[max(0, step - presenters.LOG_ACTIONS) : step],
        state=state,
        replay=True,
    )
    final_view = engine.player_view(final, None)
    context.update(
        step=step,
        steps=len(actions),
        step_lines=context["log"][0]["lines"] if step and context["log"] else [],
        problem=problem,
        final_racks=[
            {"name": name, "rack": presenters.tiles_view(rack)}
            for name, rack in zip(final_view["names"], final_view["final_racks"], strict=True)
        ],
    )
    if request.htmx:
        return render(request, f"{REPLAY_TEMPLATE}#step", context)
    return render(request, REPLAY_TEMPLATE, context)
