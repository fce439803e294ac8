"""The tournament page's WebSocket: standings and tables, re-rendered after every change.

``tournaments.live`` sends ``{"type": "tournament.changed"}`` to the tournament's group after
every result, organiser change and move at one of its tables.  A socket is not a member of
that group itself: its process is, once for all of its sockets on the tournament
(``remi_site.audiences``), and answers each change, or burst of changes (a busy round's
moves), with one read of the page's live part and one render per language, time zone and
kind of viewer: visitors, logged-in strangers (who may register), and each player of the
tournament, whose own lines are marked, once for all of their sockets.  The part holds only
public facts (``tournaments.presenters``) and goes out as an out-of-band swap for the htmx ws
extension.  The page takes no input: whatever a client sends is ignored."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import LoginBoundSocket
from remi_site.audiences import AUDIENCES, list_work
from remi_site.consumers import refuse_handshake
from remi_site.socket_locale import run_in_locale, viewer_locale
from tournaments import presenters
from tournaments.live import group_name


class TournamentConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    tournament_id: int
    group: str | None = None
    viewer_id: int | None = None
    # The viewer's language and time zone (the rounds' deadlines are shown in it).
    locale: tuple[str, Any] = ("en", None)

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.viewer_id = presenters.viewer_id_of(self.scope.get("user"))
        self.locale = viewer_locale(self.scope)
        await AUDIENCES.join(group_name(self.tournament_id), self, refresh)
        self.group = group_name(self.tournament_id)
        await self.bind_to_login()
        await self.accept()
        # Whatever changed between the page's render and joining the audience is sent now.
        AUDIENCES.owe(self.group, self)

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await AUDIENCES.leave(self.group, self)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return


async def refresh(sockets: list[TournamentConsumer]) -> list[tuple[TournamentConsumer, str]]:
    """What each owed socket of one tournament is sent: the live part read once per language
    (its lines are worded as they are read), rendered once per key.  A tournament gone (or no
    longer public) sends nothing, as before."""
    tournament_id = sockets[0].tournament_id
    render = list_work(run_in_locale)
    facts: dict[str, presenters.LiveFacts | None] = {}
    rendered: dict[tuple[Any, ...], str] = {}
    sends = []
    for socket in sockets:
        language = socket.locale[0]
        if language not in facts:
            facts[language] = await list_work(run_in_locale)(
                (language, None), presenters.read_live, tournament_id
            )
        read = facts[language]
        if read is None:
            continue
        logged_in = socket.viewer_id is not None
        # A stranger's part says nothing of them but whether they may register.
        own = socket.viewer_id if socket.viewer_id in read.involved else None
        key = (socket.locale, logged_in, own)
        if key not in rendered:
            rendered[key] = await render(
                socket.locale, presenters.render_live_for, read, own, logged_in
            )
        sends.append((socket, rendered[key]))
    return sends


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
