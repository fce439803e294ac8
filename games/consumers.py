"""The game page's WebSocket: after every move, each socket gets its own seat's view.

``services.play`` publishes only ``{"type": "game.updated", "version": n}`` to the game's
group.  Each consumer then renders the page's partials for *its* seat (a spectator: seat None)
and sends them as raw HTML whose top-level elements carry ids and ``hx-swap-oob``, which the
htmx ws extension swaps in.  Nothing rendered for one seat is ever sent to another.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games import presenters, services
from games.models import Game, Seat

UPDATES_TEMPLATE = "games/game.html#updates"


def _client_version(query_string: bytes) -> int | None:
    """The version the page was rendered at (``?version=n``), if it says one we can read."""
    values = parse_qs(query_string.decode("latin-1")).get("version", [])
    text = values[0] if values else ""
    return int(text) if text.isdigit() and len(text) < 10 else None


class GameConsumer(AsyncWebsocketConsumer):
    game_id: int
    seat: int | None = None
    group: str | None = None
    # The newest version this socket has been sent (or the page was rendered at): anything
    # at or below it is old news, which is how catch-up and duplicate events are skipped.
    sent_version: int = -1

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        viewing = await database_sync_to_async(presenters.viewable_game)(
            self.game_id, self.scope.get("user")
        )
        if viewing is None:
            await self.close()  # before accept: the handshake is refused
            return
        self.seat = viewing.seat
        self.group = services.group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        known = _client_version(self.scope.get("query_string", b""))
        if known is not None:
            self.sent_version = known
        # Read the game again now that the group is joined: a move saved meanwhile is either
        # in this read or in a message still to come, so none slips between the two.
        await self._send_if_newer()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The page never needs to send anything: moves go over HTTP, through services.play.
        # Whatever arrives (garbage, huge frames, bytes) is ignored rather than parsed.
        return

    async def game_updated(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if isinstance(version, int) and version <= self.sent_version:
            return
        await self._send_if_newer()

    async def _send_if_newer(self) -> None:
        rendered = await database_sync_to_async(self._render)(self.sent_version)
        if rendered is None:
            return
        html, version = rendered
        self.sent_version = version
        await self.send(text_data=html)

    def _render(self, known: int) -> tuple[str, int] | None:
        """This seat's partials at the game's current version, if newer than ``known``.

        Three queries (game with table, seats, recent actions); a finished game adds one to
        find the next game of the series.
        """
        game = Game.objects.select_related("table").filter(pk=self.game_id).first()
        if game is None or game.version <= known:
            return None
        seats = list(Seat.objects.filter(table_id=game.table_id))
        context = presenters.game_context(game, seats, self.seat)
        return render_to_string(UPDATES_TEMPLATE, {**context, "oob": True}), game.version
