"""The sockets of one web process that show a list many people watch: one group membership
for all of them, and one refresh per burst of changes, never one per socket.

The lobby, a table's page and a tournament's page re-render a list whenever its group hears
of a change.  Each of those sockets used to be a member of the group itself, so a change cost
one message through Redis per socket, read back by its process, and one read and render per
socket on the thread every socket's database work shares: with hundreds of idle lobby sockets
a game's move waited seconds behind their renders (issue 27, fault 5).  Here each process
joins the group once, on a channel of its own, for all of its sockets watching that group
(an :class:`Audience`).  A message there marks every one of them as owed a fresh render, and
one task per audience hands the owed sockets to the list's ``refresh`` function, which reads
once and renders once per kind of viewer (``games.tables.lobby_live``, ``tournaments.consumers``).
Changes that arrive while a refresh runs are answered together by the next one: a burst costs
two refreshes, however long.  A socket that connects is owed its first render the same way.

The refreshes read and render on a thread of their own (:func:`list_work`), not on the one
every socket's database work shares: a game's move never queues there behind a list.

Every message on the group is read as "something changed": the lists' groups carry nothing
else, and a refresh reads the current state, so what it sends is never older than the news.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

# One thread per process for the lists' reads and renders, in turn.
_LIST_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lists")


def list_work(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` run on the lists' own thread, with its database connection closed around it
    as ``database_sync_to_async`` does.  Channels runs every socket's database work on one
    thread, one call after another: a list's read and renders there (tens of milliseconds
    under load) held up each game socket's move that arrived meanwhile.  Here a move shares
    only the interpreter with them, which switches between threads every few milliseconds."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_LIST_THREAD)


# A refresh: given the owed sockets of one audience, what to send each of them now (a socket
# left out is sent nothing).  The audience sends it, to the sockets still watching.
Refresh = Callable[[list[Any]], Awaitable[list[tuple[Any, str]]]]

# The longest a process waits before renewing its group membership.  Channels-redis drops a
# member after the layer's group_expiry (a day by default) unless it joins again; a socket
# lives less than that, but an audience lives as long as any of its sockets, which on the
# lobby is as long as the process.
RENEW_SECONDS = 3600.0
# A code the htmx ws extension reconnects after: the page then asks for the list afresh.
REFRESH_FAILED_CLOSE_CODE = 1011
# Sends made in a row before the event loop is let to run other work (a game's move).
SENDS_IN_A_ROW = 10


class Audience:
    """One group's watching sockets in this process, the channel that listens for them, and
    the task that refreshes them."""

    def __init__(self, layer: Any, group: str, refresh: Refresh) -> None:
        self.layer = layer
        self.group = group
        self.refresh = refresh
        self.sockets: set[Any] = set()
        self.channel = ""
        self._owed: set[Any] = set()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        # Announcements heard and refreshes run, for the tests and the bench.
        self.heard = 0
        self.refreshes = 0

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._serve()),
            asyncio.create_task(self._renew()),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.layer.group_discard(self.group, self.channel)

    def owe(self, sockets: Iterable[Any]) -> None:
        """These sockets are to be sent the list as it is after this moment."""
        self._owed.update(sockets)
        self._wake.set()

    async def _listen(self) -> None:
        while True:
            try:
                await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A socket's own receive loop would end (and the browser reconnect); this one
                # serves many sockets, so it waits a moment and listens again.
                log.exception("the channel of %s's audience could not receive", self.group)
                await asyncio.sleep(1.0)
                continue
            self.heard += 1
            self.owe(self.sockets)

    async def _serve(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            # Taken before the refresh reads anything, so whatever changes from now on is
            # either in that read or owed again for the next refresh.
            owed = [socket for socket in self._owed if socket in self.sockets]
            self._owed.clear()
            if not owed:
                continue
            self.refreshes += 1
            try:
                sends = await self.refresh(owed)
            except asyncio.CancelledError:
                raise
            except Exception:
                # As a socket whose own handler raised: closed, so that its page reconnects
                # and reads afresh.  The audience itself goes on with the next change.
                log.exception("a refresh of %s's sockets failed", self.group)
                for socket in owed:
                    if socket in self.sockets:
                        with contextlib.suppress(Exception):
                            await socket.close(code=REFRESH_FAILED_CLOSE_CODE)
                continue
            await self._send(sends)

    async def _send(self, sends: list[tuple[Any, str]]) -> None:
        for n, (socket, text) in enumerate(sends, start=1):
            # A socket that left while the refresh ran is not sent to: its consumer is gone.
            if socket in self.sockets:
                try:
                    await socket.send(text_data=text)
                except Exception:
                    log.exception("a socket watching %s could not be sent its list", self.group)
            if n % SENDS_IN_A_ROW == 0:
                await asyncio.sleep(0)

    async def _renew(self) -> None:
        expiry = float(getattr(self.layer, "group_expiry", 86400))
        every = max(1.0, min(RENEW_SECONDS, expiry / 4))
        while True:
            await asyncio.sleep(every)
            try:
                await self.layer.group_add(self.group, self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("could not renew %s's membership; trying again", self.group)


class Audiences:
    """Per process and event loop: the audiences of the groups some socket here watches."""

    def __init__(self) -> None:
        self._audiences: dict[str, Audience] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock: asyncio.Lock | None = None

    def _current(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._lock is None:
            # A new loop (tests run one per case): the old loop's audiences are gone with it.
            self._audiences, self._loop, self._lock = {}, loop, asyncio.Lock()
        return self._lock

    async def join(self, group: str, socket: Any, refresh: Refresh) -> None:
        """``socket`` watches ``group`` from now on (``refresh`` serves the whole group; the
        first socket's is the one kept).  Its first render is owed with :meth:`owe`."""
        async with self._current():
            audience = self._audiences.get(group)
            if audience is None:
                audience = Audience(socket.channel_layer, group, refresh)
                await audience.start()
                self._audiences[group] = audience
            audience.sockets.add(socket)

    def owe(self, group: str, socket: Any) -> None:
        audience = self._audiences.get(group)
        if audience is not None and socket in audience.sockets:
            audience.owe([socket])

    async def leave(self, group: str, socket: Any) -> None:
        async with self._current():
            audience = self._audiences.get(group)
            if audience is None:
                return
            audience.sockets.discard(socket)
            if not audience.sockets:
                del self._audiences[group]
                await audience.stop()

    def get(self, group: str) -> Audience | None:
        return self._audiences.get(group)


AUDIENCES = Audiences()
