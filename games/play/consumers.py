"""The game page's WebSocket: it takes the page's moves, and after every move each socket
gets its own seat's view.

A move arrives as the action form's fields (``receive``) and is played by ``games.play.moves``,
as the ``act`` view plays it; the mover is answered on the same socket, everyone else as
below.

``services.play`` publishes only ``{"type": "game.updated", "version": n}`` to the game's
group.  Each consumer then sends the page's partials for *its* seat (a spectator: seat None)
as raw HTML whose top-level elements carry ids and ``hx-swap-oob``, which the htmx ws
extension swaps in.  The partials come from ``live_views.SHARED``: read and rendered once per
version, seat and process, so the spectators of a game share one render and the seats one
read of the game.  A spectator's socket is not a member of the game's group itself: its process
is, once for all its spectators of that game (``spectators``).  Nothing rendered for one seat
is ever sent to another.
"""

from __future__ import annotations

import functools
import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import QueryDict
from django.template.loader import render_to_string

from accounts.sockets import LoginBoundSocket
from games import presenters
from games.engine.core.numbers import parse_natural
from games.hot_reads import table_seats
from games.play import live_views, moves, news, page_tabs
from games.play.page_parts import Rendered, SentParts, part_names, render_parts
from games.play.spectators import SPECTATORS
from remi_site import metrics
from remi_site.socket_locale import run_in_locale, viewer_locale

# The longest frame a move can need (the notation and the selection are 200 characters at
# most, the draft's table a few hundred): anything longer is refused unread.
MAX_MOVE_FRAME = 8192
# Heads the answer to a move that went in: the page clears what the move used up, as it does
# for the act view's "remi:acted" event (static/js/game-shell.js).
ACTED = "<!--acted-->"


def move_fields(text: str | None) -> QueryDict | None:
    """The form fields of a move frame (a JSON object of strings or lists of strings, as the
    ws extension sends a form; its ``HEADERS`` are not read), or None if it is not one."""
    if not isinstance(text, str) or len(text) > MAX_MOVE_FRAME:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    data.pop("HEADERS", None)
    fields = QueryDict(mutable=True)
    for name, value in data.items():
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in values):
            return None
        fields.setlist(name, values)
    return fields


def _query_value(query_string: bytes, name: str) -> str:
    values = parse_qs(query_string.decode("latin-1")).get(name, [])
    return values[0] if values else ""


def _client_version(query_string: bytes) -> int | None:
    """The version the page was rendered at (``?version=n``), if it says one we can read."""
    return parse_natural(_query_value(query_string, "version"))


@functools.lru_cache(maxsize=1024)
def arranging_note(template: str, name: str, locale: tuple[str, Any]) -> str:
    """The "X is arranging the table" note, as a socket sends it.  No database, so it is
    rendered on the event loop; cached, since every socket of a game asks for the same one."""
    return run_in_locale(
        locale, render_to_string, f"{template}#arranging", {"arranging": name, "oob": True}
    )


@functools.lru_cache(maxsize=64)
def unreadable_note(locale: tuple[str, Any]) -> str:
    """The answer to a frame that is no move: no database, so rendered on the event loop, and
    once per locale (a client sending garbage gets no render per frame)."""
    return run_in_locale(locale, render_to_string, "games/includes/socket_refusal.html")


class GameConsumer(LoginBoundSocket, AsyncWebsocketConsumer):
    game_id: int
    seat: int | None = None
    group: str | None = None
    watching = False  # a spectator, fed through ``spectators.SPECTATORS``
    # The newest version this socket has been sent (or the page was rendered at): anything
    # at or below it is old news, which is how catch-up and duplicate events are skipped.
    sent_version: int = -1
    locale: tuple[str, Any] = ("en", None)  # the viewer's language and time zone
    tab = ""  # the page's own name (games.play.page_tabs): its moves are answered over HTTP
    template = ""  # the game's page template, whose partials the socket sends
    sent: SentParts  # what this socket last sent of each part: only the changed ones go
    viewing_as: tuple[int | None, tuple[str, Any]] | None = None  # in live_views.VIEWERS

    async def connect(self) -> None:
        self.sent = SentParts()
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        viewing = await database_sync_to_async(presenters.viewable_game)(
            self.game_id, self.scope.get("user")
        )
        if viewing is None:
            await self.close()  # before accept: the handshake is refused
            return
        self.seat = viewing.seat
        self.template = presenters.presenter_for(viewing.game.table.game_type).template
        self.locale = viewer_locale(self.scope)
        if self.seat is None:
            # Spectators see the same thing: the process listens once for all of its own.
            self.watching = True
            await SPECTATORS.add(self.game_id, self)
        else:
            self.group = news.group_name(self.game_id)
            await self.channel_layer.group_add(self.group, self.channel_name)
        await self.bind_to_login()
        await self.accept()
        self.viewing_as = (self.seat, self.locale)
        live_views.VIEWERS.add(self.game_id, *self.viewing_as)
        query = self.scope.get("query_string", b"")
        known = _client_version(query)
        self.tab = page_tabs.valid_tab(_query_value(query, "tab"))
        if known is not None:
            self.sent_version = known
        # Read the game again now that the group is joined: a move saved meanwhile is either
        # in this read or in a message still to come, so none slips between the two.
        await self._send_if_newer()

    async def disconnect(self, code: int) -> None:
        if self.viewing_as is not None:
            live_views.VIEWERS.remove(self.game_id, *self.viewing_as)
            self.viewing_as = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.watching:
            await SPECTATORS.remove(self.game_id, self)
        await self.unbind_from_login()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A move from the page: the action form's fields as JSON (what htmx's ws extension
        sends), played as the ``act`` view plays them, in one hop to the database thread.
        Anything else gets a sentence in the error area and changes nothing."""
        fields = move_fields(text_data)
        if fields is None:
            await self.send(text_data=await self._unreadable())
            return
        answer = await database_sync_to_async(run_in_locale)(self.locale, self._move, fields)
        if answer is None:  # the game is gone, or the viewer may no longer see it
            await self.close()
            return
        rendered, played = answer
        if played:
            # Every part: the mover's page may show a draft or an order the socket never
            # sent, and lets go of its selection with this answer.
            html = ACTED + self.sent.changed(rendered, whole=True)
        else:
            # A refusal's parts are sent as they are, the error with them.
            html = self.sent.note(rendered.parts, always=True)
        # At or past this version the page has it all: the move's own announcement, which
        # waits behind this handler, is then skipped as old news.
        self.sent_version = max(self.sent_version, rendered.version)
        await self.send(text_data=html)

    def _move(self, fields: QueryDict) -> tuple[Rendered, bool] | None:
        answer = moves.submit(self.game_id, self.scope.get("user"), fields)
        if answer is None:
            return None
        version = answer.viewing.game.version
        if answer.played is not None and answer.shown is not None:
            # The other seats' parts were rendered before the news went out; this seat's now,
            # kept for its other tabs.
            return live_views.SHARED.rendered(answer.shown, self.seat, self.locale), True
        names = part_names(answer.template) if answer.part == moves.UPDATES else [answer.part]
        parts = render_parts(answer.template, answer.context, names)
        if answer.played is None:
            return Rendered(version, parts), False
        stamp = next((s.rack_order for s in answer.viewing.seats if s.position == self.seat), None)
        return Rendered(version, parts, stamp), True

    async def _unreadable(self) -> str:
        return unreadable_note(self.locale)

    async def game_updated(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if not isinstance(version, int):
            await self._send_if_newer()
            return
        if version <= self.sent_version:
            return
        if (
            self.tab
            and event.get("answered") == self.tab
            and event.get("answered_seat") == self.seat
            and version == self.sent_version + 1
        ):
            # This page made the move and has its answer, the same position: not sent twice.
            # Only from the version it already showed, so a page behind still catches up;
            # only for the seat that moved, so a page's name given by another seat is no use.
            # The page's parts came over HTTP: the socket no longer knows what it shows.
            self.sent_version = version
            self.sent.forget()
            return
        rendered = await live_views.SHARED.updates(self.game_id, version, self.seat, self.locale)
        if rendered is None or rendered.version <= self.sent_version:
            return
        await self._send_parts(rendered)
        if self.seat is not None and rendered.version == version:
            metrics.move_reached_seat(event.get("at"))

    async def _send_parts(self, rendered: Rendered) -> None:
        """The parts of ``rendered`` that differ from what this socket last sent."""
        self.sent_version = rendered.version
        html = self.sent.changed(rendered)
        if html:
            await self.send(text_data=html)

    async def game_next_dealt(self, event: dict[str, Any]) -> None:
        """The series' next game (or a rematch table) was made: this finished game's result
        now links to it.  Its version is unchanged, so the page is sent again whatever it last
        had; read and rendered once per process and seat under the news' own tag."""
        news = next(
            (
                f"{kind}:{event[kind]}"
                for kind in ("game", "table")
                if isinstance(event.get(kind), int)
            ),
            None,
        )
        if news is None:
            await self._send_if_newer(known=-1)
            return
        rendered = await live_views.SHARED.updates(self.game_id, 0, self.seat, self.locale, news)
        if rendered is None or rendered.version < self.sent_version:
            return
        await self._send_parts(rendered)

    async def game_arranging(self, event: dict[str, Any]) -> None:
        """Another seat is composing its turn: a note, never the draft (which stays on the
        drafting seat's own row and is only ever rendered in answer to its own requests).
        The note names the player the event names: no query, and one render per process for
        all the sockets in one language (``arranging_note``)."""
        seat, version, name = event.get("seat"), event.get("version"), event.get("name")
        if seat == self.seat or not isinstance(seat, int) or version != self.sent_version:
            return
        if not isinstance(name, str) or not self.template:
            return
        note = arranging_note(self.template, name, self.locale)
        # The next update's own "arranging" part (no note) then differs, and is sent.
        self.sent.note((("arranging", note),), always=True)
        await self.send(text_data=note)

    async def _send_if_newer(self, known: int | None = None) -> None:
        known = self.sent_version if known is None else known
        rendered = await database_sync_to_async(run_in_locale)(self.locale, self._render, known)
        if rendered is None:
            return
        await self._send_parts(rendered)

    def _render(self, known: int) -> Rendered | None:
        """This seat's parts at the game's current version, if newer than ``known``.

        Three queries (game with table, seats, recent actions); a finished game adds one to
        find the next game of the series.
        """
        game = presenters.read_game(self.game_id)
        if game is None or game.version <= known:
            return None
        seats = table_seats(game.table_id)
        context = presenters.game_context(game, seats, self.seat)
        template = presenters.presenter_for(game.table.game_type).template
        stamp = next((s.rack_order for s in seats if s.position == self.seat), None)
        return Rendered(game.version, render_parts(template, context), stamp)
