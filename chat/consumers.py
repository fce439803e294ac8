"""``/ws/games/<id>/chat/``: a game's chat, live.  Each socket gets only the messages its
reader may see (their room during play, not from people they muted), rendered for them."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from accounts.sockets import LoginBoundSocket
from chat import services
from chat.models import ChatMessage
from games.models import Game
from games.presenters import viewable_game
from remi_site.socket_locale import in_viewer_locale


class ChatConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    game_id: int
    seat: int | None = None
    group: str | None = None

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        user = self.scope.get("user")
        viewing = None
        if user is not None and user.is_authenticated:
            viewing = await database_sync_to_async(viewable_game)(self.game_id, user)
        if viewing is None:
            await self.close()  # before accept: the handshake is refused
            return
        self.seat = viewing.seat
        self.group = services.chat_group(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.bind_to_login()
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # messages are posted over HTTP (chat/views.py); frames are ignored

    async def chat_posted(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(in_viewer_locale(self.scope, self._render_line))(
            event.get("id")
        )
        if html:
            await self.send(text_data=html)

    async def chat_removed(self, event: dict[str, Any]) -> None:
        if isinstance(event.get("id"), int):
            await self.send(text_data=f'<li id="chat-{event["id"]}" hx-swap-oob="delete"></li>')

    def _render_line(self, message_id: Any) -> str:
        if not isinstance(message_id, int):
            return ""
        message = ChatMessage.objects.select_related("author", "game").filter(pk=message_id).first()
        if message is None:
            return ""
        user = self.scope["user"]
        game = Game.objects.filter(pk=self.game_id).only("status").first()
        if game is None:
            return ""
        reader = services.reader_of(game, user.pk, self.seat)
        if not services.may_read(message, reader, services.muted_by(user.pk)):
            return ""
        line = render_to_string("chat/line.html", {"m": message, "reader_id": user.pk})
        return f'<ol id="chat-lines" hx-swap-oob="beforeend">{line}</ol>'
