"""The spectators of a game, per web process: one member of the game's group, not one each.

The channel layer delivers a group message once per member channel, so a game with 500
spectator sockets used to cost 500 messages through Redis per move, each read back by its
process.  Here each process joins the game's group once, on a channel of its own, for all the
spectator sockets it holds on that game; a message arriving there is handed to each of those
sockets' handlers in the process (which share one render per version: ``live_views``).
Players' sockets keep their own membership: each gets its own seat's view.

Only spectators (seat None) are kept here, and what they are handed is what a spectator's
own group membership would have delivered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from channels.consumer import get_handler_name

from games.play import news

log = logging.getLogger(__name__)


class _Watch:
    """One game's spectator sockets in this process, and the channel that listens for them."""

    def __init__(self, layer: Any, game_id: int) -> None:
        self.layer = layer
        self.group = news.group_name(game_id)
        self.sockets: set[Any] = set()
        self.channel = ""
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self.task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        with contextlib.suppress(Exception):
            await self.layer.group_discard(self.group, self.channel)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A socket's own receive loop would end (and the browser reconnect); this one
                # serves many sockets, so it waits a moment and listens again.
                log.exception("the spectators' channel of %s could not receive", self.group)
                await asyncio.sleep(1.0)
                continue
            # Each socket's own handler, as its own membership would have called it; one
            # socket that fails does not keep the message from the others.
            try:
                handler_name = get_handler_name(message)
            except ValueError:
                continue  # not a message for sockets
            handlers = [getattr(s, handler_name, None) for s in list(self.sockets)]
            results = await asyncio.gather(
                *(handler(message) for handler in handlers if handler is not None),
                return_exceptions=True,
            )
            for result in results:
                if isinstance(result, Exception):
                    log.error("a spectator socket of %s failed: %r", self.group, result)


class Spectators:
    """Per process and event loop: the watches of the games that have spectators here."""

    def __init__(self) -> None:
        self._watches: dict[int, _Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None

    def _current(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._lock is None:
            # A new loop (tests run one per case): the old loop's watches are gone with it.
            self._watches, self._loop, self._lock = {}, loop, asyncio.Lock()
        return self._lock

    async def add(self, game_id: int, socket: Any) -> None:
        async with self._current():
            watch = self._watches.get(game_id)
            if watch is None:
                watch = _Watch(socket.channel_layer, game_id)
                await watch.start()
                self._watches[game_id] = watch
            watch.sockets.add(socket)

    async def remove(self, game_id: int, socket: Any) -> None:
        async with self._current():
            watch = self._watches.get(game_id)
            if watch is None:
                return
            watch.sockets.discard(socket)
            if not watch.sockets:
                del self._watches[game_id]
                await watch.stop()

    def count(self, game_id: int) -> int:
        watch = self._watches.get(game_id)
        return len(watch.sockets) if watch is not None else 0


SPECTATORS = Spectators()
