"""``/ws/me/``: the logged-in player's own socket, which keeps the navigation's badge of
waiting games current. It sends only what the badge shows (counts and links)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import LoginBoundSocket
from notifications.badge import badge_group, render_badge
from remi_site.socket_locale import in_viewer_locale


class WaitingGamesConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close()  # before accept: the handshake is refused
            return
        self.group = badge_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.bind_to_login()
        await self.accept()
        # Whatever changed between the page's render and the join above is sent now.
        await self.waiting_changed({})

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the badge never needs anything from the page

    async def waiting_changed(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(in_viewer_locale(self.scope, render_badge))(
            self.scope["user"], oob=True, fresh=True
        )
        await self.send(text_data=html)
