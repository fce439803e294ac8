"""The lobby socket: re-renders the public table list (or one table's seats) on every change.

``/ws/lobby/?page=<n>`` serves the lobby page: it answers each ``lobby.changed`` event with
page *n* (default 1) of the ``#open-tables`` list and the viewer's own ``#my-tables``.
``/ws/lobby/?table=<id>&seen=<status>`` serves a table page: it answers with that table's
``#table-live`` section instead.  Either way the HTML goes out as out-of-band swaps for the
htmx ws extension.

The event carries no data.  A socket is not a member of the lobby's group itself: its process
is, once for all of its lobby and table sockets (``remi_site.audiences``), and answers each
change (or burst of changes) with one read of the tables and one render per part and kind of
viewer (``games.tables.lobby_live``), never one per socket.  Only public tables, or a table the
viewer sits at, are ever rendered for a viewer.  The lobby takes no input, so anything a
client sends is ignored.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import LoginBoundSocket
from games.engine.core.numbers import parse_natural
from games.models import Table
from games.play.news import LOBBY_GROUP
from games.tables import lobby_live
from games.tables import lobby_presenters as present
from remi_site.audiences import AUDIENCES
from remi_site.socket_locale import scope_language

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
    # Who the viewer is (None: a visitor) and the language their page is in: what the
    # renders this socket shares with others are keyed by.
    viewer_id: int | None = None
    language: str = "en"
    watching = False

    async def connect(self) -> None:
        query = _query(self.scope)
        table = query.get("table", "")
        self.table_id = parse_natural(table)
        self.page_number = present.page_number_of(query.get("page"))
        seen = query.get("seen")
        self.seen_status = seen if seen in Table.Status.values else None
        self.viewer_id = present.viewer_id_of(self.scope.get("user"))
        self.language = scope_language(self.scope)
        await AUDIENCES.join(LOBBY_GROUP, self, lobby_live.refresh)
        self.watching = True
        await self.bind_to_login()
        await self.accept()
        # Something may have changed between the page's render and joining the audience.
        AUDIENCES.owe(LOBBY_GROUP, self)

    async def disconnect(self, code: int) -> None:
        if self.watching:
            await AUDIENCES.leave(LOBBY_GROUP, self)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The lobby is read-only over the socket: every change is an HTTP POST, checked there.
        return
