"""The site's ASGI application plus the floors bench/live.py measures against.

``/ws/floor/<group>/`` is the least a live move can cost on this stack: a bare consumer that
joins a group on the same channel layer and, for each text frame it receives, ``group_send``s
it to the group; every member sends it on as it came.  No database, no session, no rendering.

``/ws/floor-durable/<group>/`` is the least a move that is never lost nor applied twice can
cost: the same consumer, but before it sends a frame on it commits what any such move must
write to PostgreSQL, and nothing more: the game's row moved from the version before to the
frame's version (a compare-and-set, as the site's move does) with its state rewritten, and
one row appended to the move log.  The state written is the table's real game state as the
bench stored it (so its size and how well it compresses are a real position's), read once
when the socket connects.  It uses psycopg's async pool directly, without Django's ORM, so
the figure is PostgreSQL's and the driver's cost, not ours.

Everything else goes to ``remi_site.asgi.application`` unchanged, so the same daphne
processes serve all three and they are measured side by side.  Only the bench starts it.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import sys
import time
from collections import Counter
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from bench.floor_schema import DURABLE_GAMES, DURABLE_MOVES
from remi_site.asgi import application as site

FRAME_VERSION = re.compile(r">v(\d+)<")


def log_collections(folder: str) -> None:
    """With ``BENCH_GC_LOG=<folder>``: each of the collector's passes in this process, as a
    line "generation milliseconds" in ``<folder>/gc-<pid>.txt`` (a full pass stops every
    socket of the process: the first suspect for a p99)."""
    started: list[float] = []
    path = os.path.join(folder, f"gc-{os.getpid()}.txt")

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            with open(path, "a") as out:
                out.write(
                    f"{info['generation']} {1000 * (time.perf_counter() - started[0]):.2f}"
                    f" {info['collected']}\n"
                )

    gc.callbacks.append(timed)


def census(folder: str) -> None:
    """With ``BENCH_GC_CENSUS=<folder>``: after each full pass, how many objects the collector
    tracks in this process and of which types most (``<folder>/census-<pid>.txt``).  A full
    pass walks every one of them; counting them takes time, so not in a timed run."""
    path = os.path.join(folder, f"census-{os.getpid()}.txt")
    # What the passes find unreachable is kept in gc.garbage, to be counted by type: the
    # reference cycles the code makes, which only the collector frees.
    gc.set_debug(gc.DEBUG_SAVEALL)
    cyclic: Counter[str] = Counter()

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase != "stop":
            return
        cyclic.update(type(o).__qualname__ for o in gc.garbage)
        gc.garbage.clear()
        if info["generation"] != 2:
            return
        kinds = Counter(type(o).__qualname__ for o in gc.get_objects())
        with open(path, "a") as out:
            out.write(f"{time.time():.0f} {sum(kinds.values())} objects\n")
            for kind, count in kinds.most_common(25):
                out.write(f"  {count:8d} {kind}\n")
            # Frames kept alive (by tracebacks, coroutines, generators): whose they are.
            frames = Counter(
                f"{o.f_code.co_name} {o.f_code.co_filename.rsplit('/', 2)[-1]}:{o.f_lineno}"
                for o in gc.get_objects()
                if type(o).__name__ == "frame"
            )
            for where, count in frames.most_common(15):
                out.write(f"  {count:8d} frame of {where}\n")
            out.write(f"  garbage in cycles so far: {sum(cyclic.values())}\n")
            for kind, count in cyclic.most_common(25):
                out.write(f"  {count:8d} {kind} in a cycle\n")

    gc.callbacks.append(counted)


if os.environ.get("BENCH_GC_LOG"):
    log_collections(os.environ["BENCH_GC_LOG"])
if os.environ.get("BENCH_GC_CENSUS"):
    census(os.environ["BENCH_GC_CENSUS"])
if os.environ.get("BENCH_GC_OFF"):
    # An experiment, never production: how much of the tail the collector's passes are.
    gc.disable()
if os.environ.get("BENCH_SWITCH_INTERVAL"):
    # An experiment: how long the event loop's thread waits for the interpreter while the
    # database thread renders (Python's default lets a thread hold it for 5 ms).
    sys.setswitchinterval(float(os.environ["BENCH_SWITCH_INTERVAL"]))


class FloorConsumer(AsyncWebsocketConsumer):
    group: str = ""
    prefix = "floor-"

    async def connect(self) -> None:
        self.group = self.prefix + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data:
            await self.announce(text_data)

    async def announce(self, text: str) -> None:
        await self.channel_layer.group_send(self.group, {"type": "floor.frame", "text": text[:200]})

    async def floor_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


_pool: Any = None
_pool_opening = asyncio.Lock()  # hundreds of sockets connect at once: one pool, not one each


async def durable_pool() -> Any:
    """This process's PostgreSQL connections for the durable floor, opened on first use (in
    the event loop that uses them)."""
    global _pool
    if _pool is not None:
        return _pool
    async with _pool_opening:
        if _pool is not None:
            return _pool
        from django.conf import settings
        from psycopg.conninfo import make_conninfo
        from psycopg_pool import AsyncConnectionPool

        db = settings.DATABASES["default"]
        conninfo = make_conninfo(
            dbname=db["NAME"],
            user=db.get("USER") or None,
            password=db.get("PASSWORD") or None,
            host=db.get("HOST") or None,
            port=db.get("PORT") or None,
        )
        pool = AsyncConnectionPool(conninfo, min_size=4, max_size=8, open=False)
        await pool.open(wait=True)
        _pool = pool
    return _pool


class DurableFloorConsumer(FloorConsumer):
    prefix = "floor-durable-"
    game_id = 0
    state = ""

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["group"].lstrip("t"))
        pool = await durable_pool()
        async with pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT state::text FROM {DURABLE_GAMES} WHERE id = %s", (self.game_id,)
            )
            row = await cursor.fetchone()
        if row is None:
            await self.close(code=4404)
            return
        self.state = row[0]
        await super().connect()

    def next_state(self, version: int) -> str:
        return f'{{"version": {version}, "position": {self.state}}}'

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        found = FRAME_VERSION.search(text_data or "")
        if not found:
            return
        version = int(found.group(1))
        pool = await durable_pool()
        async with pool.connection() as conn, conn.transaction():
            # The state changes with every move (its version is part of it), and PostgreSQL
            # parses it as the site's jsonb column is parsed.
            moved = await conn.execute(
                f"UPDATE {DURABLE_GAMES} SET version = %s, state = %s::jsonb "
                "WHERE id = %s AND version = %s",
                (version, self.next_state(version), self.game_id, version - 1),
            )
            if moved.rowcount != 1:
                return  # stale: nothing written, nothing sent (the driver counts it missed)
            await conn.execute(
                f"INSERT INTO {DURABLE_MOVES} (game_id, version, action) VALUES (%s, %s, %s)",
                (self.game_id, version, text_data[:200]),
            )
        await self.announce(text_data)


floor = URLRouter(
    [
        path("ws/floor/<slug:group>/", FloorConsumer.as_asgi()),
        path("ws/floor-durable/<slug:group>/", DurableFloorConsumer.as_asgi()),
    ]
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/floor"):
        return await floor(scope, receive, send)
    return await site(scope, receive, send)
