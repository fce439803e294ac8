"""The Bot API's two streams, as NDJSON over a long HTTP response (see docs/bot-api.md for
why not a WebSocket).  Each stream listens on the channel layer to the groups the site
already publishes to (a game's group after every move; the lobby's and the bot's own when
tables fill and invitations come), and reads the database only when told something changed
or, as a safety net for a lost message, after ``KEEPALIVE_SECONDS`` of silence, when it also
sends an empty line so proxies and clients know the stream is alive.

A stream lasts as long as a game, so no database connection may stay with it between
reads: each read goes through ``database_sync_to_async``, which hands the connection back
(to the pool, under PostgreSQL) when it is done.  Plain ``sync_to_async`` kept one per open
stream until the stream ended, and five streams emptied a daphne's pool of four."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from bot_api import play
from games.models import Game
from games.play import news

KEEPALIVE_SECONDS = 5.0


def line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


class Subscription:
    """A channel of our own in ``groups`` for as long as the stream lasts."""

    def __init__(self, groups: list[str]) -> None:
        self.layer = get_channel_layer()
        self.groups = groups
        self.channel = ""

    async def __aenter__(self) -> Subscription:
        self.channel = await self.layer.new_channel("botapi.")
        for group in self.groups:
            await self.layer.group_add(group, self.channel)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for group in self.groups:
            await self.layer.group_discard(group, self.channel)

    async def wait(self) -> bool:
        """True when a message came, False after the keep-alive time with none."""
        try:
            await asyncio.wait_for(self.layer.receive(self.channel), KEEPALIVE_SECONDS)
        except TimeoutError:
            return False
        return True


async def events(user) -> AsyncIterator[bytes]:
    """Invitations and game starts, each once; at the start, every one pending now."""
    sent: set[str] = set()
    async with Subscription([play.bot_group(user.pk), news.LOBBY_GROUP]) as listening:
        while True:
            for event in await database_sync_to_async(play.events_for)(user):
                key = play.event_key(event)
                if key not in sent:
                    sent.add(key)
                    yield line(event)
            if not await listening.wait():
                yield b"\n"


def seat_in_game(game_id: int, user) -> tuple[Game, Any] | None:
    """The game and the user's seat in it; None when there is no such game or no seat."""
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None:
        return None
    seat = play.seat_of(game, user)
    return (game, seat) if seat is not None else None


def _line_if_new(game_id: int, user, after: int) -> tuple[dict[str, Any] | None, bool]:
    """The seat's line when the game's version is past ``after``; whether the game is over."""
    found = seat_in_game(game_id, user)
    if found is None:
        return None, True
    game, seat = found
    over = game.status != Game.Status.PLAYING
    if game.version <= after and not over:
        return None, False
    return play.game_line(game, seat), over


async def game(game_id: int, user) -> AsyncIterator[bytes]:
    """The bot's seat's view after every version, until the game is over."""
    sent = -1
    async with Subscription([news.group_name(game_id)]) as listening:
        while True:
            data, over = await database_sync_to_async(_line_if_new)(game_id, user, sent)
            if data is not None and (data["version"] > sent or over):
                sent = data["version"]
                yield line(data)
            if over:
                return
            if not await listening.wait():
                yield b"\n"
