"""The lobby socket: re-renders the public table list (or one table's seats) on every change.

``/ws/lobby/?page=<n>`` serves the lobby page: it answers each ``lobby.changed`` event with
page *n* (default 1) of the ``#open-tables`` list and the viewer's own ``#my-tables``.
``/ws/lobby/?table=<id>&seen=<status>`` serves a table page: it answers with that table's
``#table-live`` section instead.  Either way the HTML goes out as out-of-band swaps for the
htmx ws extension.

The event carries no data: each connection reads the tables itself and renders for its own
viewer (the Join/Leave buttons differ), as the game sockets do.  Only public tables, or a
table the viewer sits at, are ever rendered.  The lobby takes no input, so anything a client
sends is ignored.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import LoginBoundSocket
from games import lobby_presenters as present
from games.engine.core.numbers import parse_natural
from games.models import Table
from games.services import LOBBY_GROUP
from remi_site.socket_locale import in_viewer_locale

log = logging.getLogger(__name__)


def _query(scope: dict[str, Any]) -> dict[str, str]:
    raw = scope.get("query_string", b"")
    try:
        parsed = parse_qs(raw.decode("ascii"), max_num_fields=10)
    except (UnicodeDecodeError, ValueError):  # a forged query string is just ignored
        return {}
    return {key: values[-1] for key, values in parsed.items() if values}


class LobbyConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    table_id: int | None = None
    # The lobby page the viewer is on: every update renders that page, as the page load did.
    page_number: int = 1
    # The table's status as this socket's page last showed it: a change from "open" to
    # "playing" is the moment to take a seated player to the game.
    seen_status: str | None = None

    async def connect(self) -> None:
        query = _query(self.scope)
        table = query.get("table", "")
        self.table_id = parse_natural(table)
        self.page_number = present.page_number_of(query.get("page"))
        seen = query.get("seen")
        self.seen_status = seen if seen in Table.Status.values else None
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.bind_to_login()
        await self.accept()
        # Something may have changed between the page's render and this connection.
        await self.send_update()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby is read-only over the socket: every change is an HTTP POST, checked there.
        return

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        # Every event is answered, even in a burst: each render reads the current tables,
        # so the last one sent is always up to date, and lobby changes are few per second.
        await self.send_update()

    async def send_update(self) -> None:
        viewer = self.scope.get("user")
        if self.table_id is None:
            html = await database_sync_to_async(in_viewer_locale(self.scope, present.render_lobby))(
                viewer, self.page_number
            )
        else:
            follow = self.seen_status == Table.Status.OPEN
            html, status = await database_sync_to_async(
                in_viewer_locale(self.scope, present.render_table_live)
            )(self.table_id, viewer, follow)
            if status is not None:
                self.seen_status = status
        await self.send(text_data=html)
