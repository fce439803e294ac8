"""The players' tournament pages: the list, one tournament, registering and withdrawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import presenters, services
from tournaments.models import Tournament

if TYPE_CHECKING:
    from accounts.requests import HtmxRequest


def tournament_list(request: HtmxRequest) -> HttpResponse:
    context = {kind: presenters.listed(kind) for kind in presenters.LISTED}
    return render(request, "tournaments/list.html", context)


def _visible(pk: int) -> Tournament:
    tournament = presenters.visible(pk)
    if tournament is None:
        raise Http404(_("No such tournament."))
    return tournament


def tournament_detail(request: HtmxRequest, pk: int) -> HttpResponse:
    tournament = _visible(pk)
    return render(
        request, "tournaments/detail.html", presenters.page_context(tournament, request.user)
    )


def _answer(request: HtmxRequest, tournament: Tournament) -> HttpResponse:
    """htmx gets the page's live part (swapped out of band); a plain form post the page."""
    if request.htmx:
        context = {**presenters.live_context(tournament, request.user), "oob": True}
        return render(request, "tournaments/detail.html#live", context)
    return redirect(tournament)


@require_POST
@login_required
def register(request: HtmxRequest, pk: int) -> HttpResponse:
    tournament = _visible(pk)
    try:
        services.register(tournament, request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You are registered."))
    return _answer(request, tournament)


@require_POST
@login_required
def withdraw(request: HtmxRequest, pk: int) -> HttpResponse:
    tournament = _visible(pk)
    try:
        services.withdraw_self(tournament, request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("You have withdrawn."))
    return _answer(request, tournament)
