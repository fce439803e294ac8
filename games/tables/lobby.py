"""Lobby and table views: list and create tables, sit down, stand up, start, invitations.

Every change goes through games.tables.lifecycle (which tells the lobby socket after commit).  A
refused change (TableError) becomes a message on the page the player lands on, never a
500; a table the player may not see is a 404, whether it exists or not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games.models import Table
from games.play.views import game_for
from games.tables import creation_limit, lifecycle
from games.tables import lobby_presenters as present
from games.tables.forms import DEFAULT_MOVE_SECONDS, TableForm, preset_choices, preset_options

if TYPE_CHECKING:
    from accounts.requests import HtmxRequest, SignedInRequest


# htmx asks for these parts of the new-table form by their element ids.
RULE_OPTIONS_TARGET = "rule-options"
MOVE_TIME_TARGET = "move-time"
# The new-table form's button that re-fills the options from the chosen preset.
APPLY_PRESET = "apply-preset"


def _go(request: HtmxRequest, url: str) -> HttpResponse:
    """Send the browser to ``url``: a redirect, or for htmx a full page load (a button in a
    live-updated fragment posts with htmx, and the player must land on a whole page)."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _closed(request: HtmxRequest) -> HttpResponse:
    # The table was there when the request began and gone when the service looked again
    # (its owner closed it at that moment).
    messages.error(request, _("This table was closed."))
    return _go(request, reverse("games:lobby"))


def _visible_table_or_404(request: HtmxRequest, pk: int) -> Table:
    table = present.visible_table(pk, request.user)
    if table is None:
        raise Http404("No such table.")
    return table


# --- The lobby --------------------------------------------------------------------------------


@require_safe
def lobby(request: HtmxRequest) -> HttpResponse:
    context = {
        "page": present.open_public_tables(
            request.user, present.page_number_of(request.GET.get("page"))
        ),
        "my_tables": present.tables_of(request.user),
        "live_games": present.live_public_games(request.user),
        "viewer": request.user,
    }
    if request.htmx:
        return render(request, "games/lobby.html#open-tables", context)
    return render(request, "games/lobby.html", context)


# --- Creating a table -------------------------------------------------------------------------


def _initial_from(data: QueryDict) -> dict[str, Any]:
    """Initial values for a fresh form: the options of the preset in ``data``, and its other
    choices as they were.  htmx asks by GET for a part of the form; without JavaScript the
    "Use these rules" button posts the whole form here."""
    form = TableForm(initial={"game_type": data.get("game_type")})
    initial: dict[str, Any] = {
        name: data[name] for name in form.fields if name in data and name not in form.rule_fields
    }
    preset = data.get("preset", form.game.default_preset)
    if preset in dict(preset_choices(form.game)):
        initial["preset"] = preset
        initial.update(preset_options(preset, form.game.key))
    pace = data.get("pace")
    if pace in DEFAULT_MOVE_SECONDS and "move_seconds" not in data:
        # Only the pace came (htmx, switching pace): its usual time per move.
        initial["move_seconds"] = DEFAULT_MOVE_SECONDS[pace]
    return initial


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def create_table(request: SignedInRequest) -> HttpResponse:
    if request.method == "POST" and request.POST.get("action") == APPLY_PRESET:
        form = TableForm(initial=_initial_from(request.POST))
        return render(request, "games/table_form.html", {"form": form})
    if request.method == "POST":
        form = TableForm(request.POST)
        if not form.is_valid():
            return render(request, "games/table_form.html", {"form": form}, status=400)
        allowance = creation_limit.take_creation(request.user.pk)
        if isinstance(allowance, creation_limit.TooManyCreations):
            form.add_error(None, allowance.message)
            return render(request, "games/table_form.html", {"form": form}, status=429)
        try:
            table = lifecycle.create_table(request.user, **form.create_kwargs())
        except lifecycle.TableError as error:
            allowance.give_back()
            form.add_error(None, str(error))
            return render(request, "games/table_form.html", {"form": form}, status=400)
        messages.success(request, _("Your table is ready."))
        return redirect(table)
    form = TableForm(initial=_initial_from(request.GET))
    target = request.htmx.target if request.htmx else None
    if target == RULE_OPTIONS_TARGET:
        return render(request, "games/table_form.html#rule-options", {"form": form})
    if target == MOVE_TIME_TARGET:
        return render(request, "games/table_form.html#move-time", {"form": form})
    return render(request, "games/table_form.html", {"form": form})


# --- A table ----------------------------------------------------------------------------------


@require_safe
def table_detail(request: HtmxRequest, pk: int) -> HttpResponse:
    if not request.user.is_authenticated and present.visible_table(pk, None) is None:
        # As the game page does: a visitor is asked to log in, whether or not the number is
        # a private table's, so the answer tells nothing about it.
        return redirect_to_login(request.get_full_path())
    table = _visible_table_or_404(request, pk)
    card = present.table_card(table, present.viewer_id_of(request.user))
    if request.htmx and card.follows_game and card.game_url:
        # The live fragment asks this when the table starts: players go to their game.
        return HttpResponseClientRedirect(card.game_url)
    invite_url = None
    if card.viewer_is_owner and not table.is_public and card.is_open:
        invite_url = request.build_absolute_uri(reverse("games:invite", args=[table.invite_code]))
    context = {"card": card, "viewer": request.user, "invite_url": invite_url}
    if request.htmx:
        return render(request, "games/table.html#table-live", context)
    return render(request, "games/table.html", context)


@require_POST
@login_required
def join(request: HtmxRequest, pk: int) -> HttpResponse:
    table = _visible_table_or_404(request, pk)
    try:
        lifecycle.join_table(table, request.user)
    except Table.DoesNotExist:
        return _closed(request)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You sat down at the table."))
    return _go(request, table.get_absolute_url())


@require_POST
@login_required
def leave(request: HtmxRequest, pk: int) -> HttpResponse:
    table = _visible_table_or_404(request, pk)
    closing = table.owner_id == request.user.pk
    try:
        lifecycle.leave_table(table, request.user)
    except Table.DoesNotExist:
        return _closed(request)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
        return _go(request, table.get_absolute_url())
    messages.success(request, _("You closed the table.") if closing else _("You left the table."))
    return _go(request, reverse("games:lobby"))


@require_POST
@login_required
def start(request: HtmxRequest, pk: int) -> HttpResponse:
    table = _visible_table_or_404(request, pk)
    try:
        game = lifecycle.start_table(table, request.user)
    except Table.DoesNotExist:
        return _closed(request)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
        return _go(request, table.get_absolute_url())
    return _go(request, game.get_absolute_url())


@require_POST
@login_required
def rematch(request: HtmxRequest, pk: int) -> HttpResponse:
    """ "Play again with the same settings" under a finished match: everyone who asks lands at
    the same new table."""
    table = _visible_table_or_404(request, pk)
    try:
        new = lifecycle.rematch(table, request.user)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
        game = table.games.order_by("-number").first()
        return _go(request, game.get_absolute_url() if game else table.get_absolute_url())
    if new.owner_id == request.user.pk:
        messages.success(request, _("The same players sit at this new table: start it when ready."))
    return _go(request, new.get_absolute_url())


@require_POST
@login_required
def take_back(request: HtmxRequest, pk: int) -> HttpResponse:
    """The player takes back the seat a bot took after their timeouts."""
    table = _visible_table_or_404(request, pk)
    try:
        lifecycle.take_seat_back(table, request.user)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your seat is yours again: your clock starts now."))
    game = table.games.order_by("-number").first()
    return _go(request, game.get_absolute_url() if game else table.get_absolute_url())


# --- Invitations ------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def join_by_invite(request: HtmxRequest, code: str) -> HttpResponse:
    """An invitation link: GET shows the table and a Join button, POST sits down.

    Joining only on POST means a link preview or a prefetching browser never takes a seat."""
    table = get_object_or_404(Table, invite_code=code)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            lifecycle.join_table(table, request.user)
        except Table.DoesNotExist:
            return _closed(request)
        except lifecycle.TableError as error:
            messages.error(request, str(error))
            return redirect(request.path)
        messages.success(request, _("You sat down at the table."))
        return redirect(table)
    # The invitation is the permission to see a private table, so the card is built here
    # rather than through visible_table().
    table = present.tables().get(pk=table.pk)
    card = present.table_card(table, present.viewer_id_of(request.user))
    return render(request, "games/invite.html", {"card": card, "viewer": request.user})


# --- My games ---------------------------------------------------------------------------------


@login_required
@require_safe
def my_games(request: HtmxRequest) -> HttpResponse:
    return render(request, "games/my_games.html", {"games": present.my_games(request.user)})


@require_POST
@login_required
def next_game(request: HtmxRequest, pk: int) -> HttpResponse:
    viewing = game_for(request, pk)
    if viewing.seat is None:
        raise PermissionDenied("Only the players deal the next game.")
    try:
        new = lifecycle.next_game(viewing.game.table)
    except lifecycle.TableError as error:
        messages.error(request, str(error))
        url = viewing.game.get_absolute_url()
    else:
        url = new.get_absolute_url()
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)
