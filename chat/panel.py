"""What the chat panel and the replay's transcript show a reader."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from chat import services
from chat.models import MAX_LENGTH, ChatBan, Room
from chat.phrases import PHRASES
from games.presenters import Viewing


def panel_context(viewing: Viewing, user: Any, *, error: str = "", typed: str = "") -> dict:
    game = viewing.game
    reader = services.reader_of(game, user.pk, viewing.seat)
    pk = game.pk
    return {
        "chat": {
            "room": reader.room,
            "players_room": reader.room == Room.PLAYERS,
            "over": reader.over,
            "messages": list(services.readable(game, reader)),
            "may_write": not ChatBan.objects.filter(user_id=user.pk).exists(),
            "phrases": list(PHRASES.items()),
            "max_length": MAX_LENGTH,
            "post_url": reverse("chat:post", args=[pk]),
            "socket_url": f"/ws/games/{pk}/chat/",
            "game_id": pk,
            "error": error,
            "typed": typed,
        },
        "reader_id": user.pk,
    }
