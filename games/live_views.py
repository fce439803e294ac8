"""What the game sockets of one web process share after a move: the version read once, and
each viewer's partials rendered once.

A move tells every socket on the game its new version.  Each socket used to read the game,
its seats and its log (three queries) and render its partials on its own, so a move cost one
render per open socket: 500 spectators, 500 renders of the same page.  Here the first socket
of a process to ask for a version reads it once (a :class:`Snapshot`: game, seats, log and the
loaded state), and each viewer's partials are rendered once per version, keyed by whom they
are for: a seat, or None for the spectators, who all see the same thing.  Sockets asking while
that render runs wait for it instead of starting their own.

A render is only ever handed to sockets of the same key, so what is rendered for a seat (its
rack, its own draws in the log) never reaches another seat or a spectator.  Entries live a few
seconds: long enough for every socket of the process to pick up the move, short enough that
nothing outside the version (a rack's order) stays stale.  News that leaves the version as it
was (a finished game's next game dealt, a rematch table made) is shared the same way under its
own tag, read afresh once per process.  Only a socket that connects reads on its own.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from games import presenters
from games.engine import get_game
from games.models import Action, Game, Seat
from remi_site.socket_locale import run_in_locale

if TYPE_CHECKING:
    from games.services import Played

# A viewer's language and time zone (remi_site.socket_locale.viewer_locale): renders are
# shared only between sockets of the same locale, so each page stays in its own language.
Locale = tuple[str, Any]
ENGLISH: Locale = ("en", None)
# A render is shared by: game, version, seat (None: the spectators), locale, news tag.
RenderKey = tuple[int, int, int | None, Locale, str]

# Seconds a snapshot or a render is reused after it was made.
SHARED_SECONDS = 3.0
# Snapshots kept at most (one per game with a recent move); older ones go first.
MAX_SNAPSHOTS = 2000


@dataclass(frozen=True)
class Snapshot:
    """One version of a game as every viewer's render needs it."""

    game: Game
    seats: list[Seat]
    actions: list[Action]
    state: Any
    template: str
    read_at: float


def read_snapshot(game_id: int) -> Snapshot | None:
    """The game as it is now (three queries), or None when it no longer exists."""
    game = presenters.read_game(game_id)
    if game is None:
        return None
    seats = list(Seat.objects.of_table(game.table_id))
    return snapshot_of(game, seats, get_game(game.table.game_type).load(game.state))


def snapshot_of(game: Game, seats: list[Seat], state: Any) -> Snapshot:
    """The snapshot of ``game`` (with its table) whose seats (with their users) and loaded
    state are in hand, as a move leaves them; its log is one query."""
    return Snapshot(
        game=game,
        seats=seats,
        actions=presenters.recent_actions(game),
        state=state,
        template=presenters.presenter_for(game.table.game_type).template,
        read_at=time.monotonic(),
    )


def snapshot_after(played: Played) -> Snapshot:
    """The snapshot a move leaves.  Its log is the one this process kept of the version before
    with the move's own row added, when it has that one (the log's rows never change once
    written); otherwise it is read (one query)."""
    game = played.game
    before = SHARED.kept(game.pk, game.version - 1)
    # A socket's read takes the game, then the log, in two queries: a move committed between
    # them is already in that log, and adding it again would show it twice.
    last = before.actions[-1].version if before is not None and before.actions else 0
    if before is None or last != game.version - 1:
        return snapshot_of(game, played.seats, played.state)
    return Snapshot(
        game=game,
        seats=played.seats,
        actions=[*before.actions, played.action][-presenters.LOG_ACTIONS :],
        state=played.state,
        template=before.template,
        read_at=time.monotonic(),
    )


def render_updates(snapshot: Snapshot, seat: int | None) -> str:
    """The page's partials for ``seat`` (None: a spectator), as the socket sends them."""
    game = snapshot.game
    context = presenters.game_context(
        game, snapshot.seats, seat, actions=snapshot.actions, state=snapshot.state
    )
    return render_to_string(f"{snapshot.template}#updates", {**context, "oob": True})


_FAILED = object()  # the shared render raised: each waiting socket renders on its own


class SharedViews:
    """Per process: the latest snapshot of each game, and renders per (game, version, seat)."""

    def __init__(self, seconds: float = SHARED_SECONDS) -> None:
        self.seconds = seconds
        # By game and news tag ("" for moves): news is read afresh, once, under its own tag.
        self._snapshots: dict[tuple[int, str], Snapshot] = {}
        self._lock = threading.Lock()  # the snapshots are read and written in worker threads
        # Only touched on the event loop's thread.
        self._renders: dict[RenderKey, asyncio.Future[Any]] = {}
        self.reads = 0  # snapshots read, for the tests and the bench
        self.renders = 0

    def snapshot(self, game_id: int, version: int, news: str = "") -> Snapshot | None:
        """A snapshot at ``version`` or later, read now unless a recent one will do; with
        ``news``, one read after that news arrived (the first socket to ask reads it)."""
        now = time.monotonic()
        key = (game_id, news)
        with self._lock:
            kept = self._snapshots.get(key)
        if kept is not None and kept.game.version >= version and now - kept.read_at < self.seconds:
            return kept
        fresh = read_snapshot(game_id)
        with self._lock:
            self.reads += 1
            if fresh is None:
                self._snapshots.pop(key, None)
                return None
            self._keep(key, fresh, now)
        return fresh

    def kept(self, game_id: int, version: int) -> Snapshot | None:
        """The snapshot kept of ``game_id`` at exactly ``version``, however old, if any."""
        with self._lock:
            kept = self._snapshots.get((game_id, ""))
        return kept if kept is not None and kept.game.version == version else None

    def prime(self, snapshot: Snapshot) -> None:
        """Keep a snapshot made where the move was played, so that this process's sockets
        render the move without reading it again."""
        with self._lock:
            self._keep((snapshot.game.pk, ""), snapshot, time.monotonic())

    def _keep(self, key: tuple[int, str], fresh: Snapshot, now: float) -> None:
        kept = self._snapshots.get(key)
        if kept is None or kept.game.version <= fresh.game.version:
            self._snapshots[key] = fresh
        if len(self._snapshots) > MAX_SNAPSHOTS:
            self._forget_old(now)

    def _forget_old(self, now: float) -> None:
        for key, kept in list(self._snapshots.items()):
            if now - kept.read_at >= self.seconds:
                del self._snapshots[key]
        while len(self._snapshots) > MAX_SNAPSHOTS:
            oldest = min(self._snapshots, key=lambda k: self._snapshots[k].read_at)
            del self._snapshots[oldest]

    def _render(self, key: RenderKey) -> tuple[str, int] | None:
        game_id, version, seat, locale, news = key
        snapshot = self.snapshot(game_id, version, news)
        if snapshot is None:
            return None
        html = run_in_locale(locale, render_updates, snapshot, seat)
        with self._lock:
            self.renders += 1
        return html, snapshot.game.version

    async def updates(
        self,
        game_id: int,
        version: int,
        seat: int | None,
        locale: Locale = ENGLISH,
        news: str = "",
    ) -> tuple[str, int] | None:
        """``seat``'s partials (None: a spectator's) at ``version`` or later, in ``locale``,
        and the version they show; None when the game is gone.  Rendered once per process for
        everyone with the same key who asks within a few seconds.  ``news`` names what changed
        without a move (``game.next_dealt``): read afresh once for it, then shared."""
        key: RenderKey = (game_id, version, seat, locale, news)
        loop = asyncio.get_running_loop()
        pending = self._renders.get(key)
        if pending is not None and pending.get_loop() is loop:
            result = await asyncio.shield(pending)
            if result is not _FAILED:
                return result
            return await database_sync_to_async(self._render)(key)
        pending = loop.create_future()
        self._renders[key] = pending
        loop.call_later(self.seconds, self._forget_render, key, pending)
        try:
            result = await database_sync_to_async(self._render)(key)
        except BaseException:
            pending.set_result(_FAILED)
            raise
        pending.set_result(result)
        return result

    def _forget_render(self, key: RenderKey, pending: asyncio.Future) -> None:
        if self._renders.get(key) is pending:
            del self._renders[key]

    def clear(self) -> None:
        with self._lock:
            self._snapshots.clear()
        self._renders.clear()


SHARED = SharedViews()
