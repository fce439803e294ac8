"""The tournament page's WebSocket: standings and tables, re-rendered for each viewer.

``tournaments.live`` sends ``{"type": "tournament.changed"}`` to the tournament's group after
every result, organiser change and move at one of its tables.  Each socket then renders the
page's live part for its own viewer (the register button differs) from public facts only
(``tournaments.presenters``) and sends it as an out-of-band swap for the htmx ws extension.
The page takes no input: whatever a client sends is ignored."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import LoginBoundSocket
from remi_site.consumers import refuse_handshake
from remi_site.socket_locale import in_viewer_locale
from tournaments import presenters
from tournaments.live import group_name


class TournamentConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    tournament_id: int
    group: str | None = None

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.group = group_name(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.bind_to_login()
        await self.accept()
        # Whatever changed between the page's render and the group join is sent now.
        await self.send_update()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_update()

    async def send_update(self) -> None:
        html = await database_sync_to_async(in_viewer_locale(self.scope, presenters.render_live))(
            self.tournament_id, self.scope.get("user")
        )
        if html:
            await self.send(text_data=html)


_serve = TournamentConsumer.as_asgi()


async def tournament_socket(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The route's application: a tournament nobody may see (a draft, an unknown id) is
    refused before any consumer exists, so a refused handshake never holds a channel-layer
    subscription (whose pending read could hang the event loop's shutdown)."""
    tournament_id = int(scope["url_route"]["kwargs"]["tournament_id"])
    if await database_sync_to_async(presenters.visible)(tournament_id) is None:
        await refuse_handshake(scope, receive, send)
        return
    await _serve(scope, receive, send)
