"""Posting to a game's chat and muting a writer, over htmx (with plain-form fallbacks)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from django_htmx.http import reswap

from chat import services
from chat.panel import panel_context
from games.presenters import Viewing, viewable_game

if TYPE_CHECKING:
    from accounts.requests import HtmxRequest, SignedInRequest


def _viewing(request: HtmxRequest, pk: int) -> Viewing:
    viewing = viewable_game(pk, request.user)
    if viewing is None:
        raise Http404("No such game.")
    return viewing


@require_POST
@login_required
def post(request: SignedInRequest, pk: int) -> HttpResponse:
    viewing = _viewing(request, pk)
    reader = services.reader_of(viewing.game, request.user.pk, viewing.seat)
    text, phrase = request.POST.get("text", ""), request.POST.get("phrase", "")
    error = ""
    try:
        services.post(viewing.game, reader, text=text, phrase=phrase)
    except services.ChatRefused as refused:
        error = str(refused)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("games:game", pk=pk)
    # The message itself arrives over the chat socket, as it does for everyone else.  A quick
    # phrase sent leaves the form as it is (only an old refusal goes): the player may already
    # be typing in the box, and redrawing it as it was sent would lose that.
    if phrase and not error:
        return reswap(render(request, "chat/panel.html#chat-error", {"oob": True}), "none")
    # What was typed stays in the box after a refusal.
    keep = text if error else ""
    context = panel_context(viewing, request.user, error=error, typed=keep)
    return render(request, "chat/panel.html#chat-form", context)


@require_POST
@login_required
def mute(request: SignedInRequest, pk: int, user_id: int) -> HttpResponse:
    """Mute (or, with ``unmute``, hear again) another writer; their lines leave the page."""
    viewing = _viewing(request, pk)
    reader = services.reader_of(viewing.game, request.user.pk, viewing.seat)
    ids: list[int] = []
    try:
        if request.POST.get("unmute"):
            services.unmute(request.user.pk, user_id)
        else:
            ids = services.mute(viewing.game, reader, user_id)
    except services.ChatRefused as refused:
        return HttpResponse(str(refused), status=400, content_type="text/plain")
    if not request.htmx:
        return redirect("games:game", pk=pk)
    removed = "".join(f'<li id="chat-{pk}" hx-swap-oob="delete"></li>' for pk in ids)
    return HttpResponse(removed)
