"""The Bot API's pages for people: an account's owner turns it into a bot account and makes
and revokes its tokens; a table's owner invites a bot account to sit down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from bot_api import play, tokens
from bot_api.models import BotToken
from games.models import Seat, Table

if TYPE_CHECKING:
    from accounts.requests import SignedInRequest


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Token name"),
        max_length=60,
        help_text=gettext_lazy("Where the token is used, so you can tell your tokens apart."),
    )


class InviteForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Bot account's username"), max_length=150)


@login_required
def bot_account(request: SignedInRequest) -> HttpResponse:
    user = request.user
    form = TokenForm()
    new_key = None
    if request.method == "POST":
        if request.POST.get("action") == "flag" and not user.is_bot:
            # As on lichess: only an account that has never sat at a table, so no person's
            # games and ratings are suddenly a program's.  Staff can undo it in the admin.
            if Seat.objects.filter(user=user).exists():
                messages.error(
                    request, _("Only an account that has never sat at a table can become a bot.")
                )
            else:
                user.is_bot = True
                user.save(update_fields=["is_bot"])
                messages.success(request, _("This account is now a bot account."))
            return redirect("bot_api:bot_account")
        if request.POST.get("action") == "token" and user.is_bot:
            form = TokenForm(request.POST)
            if form.is_valid():
                _token, new_key = tokens.create_token(user, form.cleaned_data["name"])
                form = TokenForm()
    context = {
        "form": form,
        "new_key": new_key,
        "bot_tokens": BotToken.objects.filter(user=user),
        "has_played": Seat.objects.filter(user=user).exists(),
    }
    response = render(request, "bot_api/bot_account.html", context)
    # The new key is in this page alone: no cache may keep it.
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(BotToken, pk=token_id, user=request.user)
    tokens.revoke(token)
    messages.success(request, _("The token %(name)s is revoked.") % {"name": token.name})
    return redirect("bot_api:bot_account")


@require_POST
@login_required
def invite_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    form = InviteForm(request.POST)
    bot = None
    if form.is_valid():
        bot = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    if bot is None:
        messages.error(request, _("There is no account with that username."))
    else:
        try:
            play.invite(table, request.user, bot)
            messages.success(request, _("%(name)s is invited.") % {"name": bot.public_name})
        except play.Refusal as refusal:
            messages.error(request, refusal.message)
    return redirect(table)
