"""``{% chat_panel %}`` on a game page and ``{% chat_transcript %}`` on its replay: each game's
template places them, the chat app fills them for the reader."""

from __future__ import annotations

from typing import Any

from django import template

from chat import panel
from games.presenters import viewable_game

register = template.Library()


@register.inclusion_tag("chat/panel.html", takes_context=True)
def chat_panel(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"chat": None}
    viewing = viewable_game(context["game_id"], user)
    if viewing is None:
        return {"chat": None}
    return panel.panel_context(viewing, user)


@register.inclusion_tag("chat/panel.html", takes_context=True)
def chat_transcript(context: template.Context) -> dict[str, Any]:
    """The chat of a finished game, read-only (the replay)."""
    shown = chat_panel(context)
    if shown.get("chat"):
        shown["chat"] = {**shown["chat"], "transcript": True, "may_write": False}
    return shown
