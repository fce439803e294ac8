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
rack, its own draws in the log) never reaches another seat or a spectator.  Snapshots live a
few seconds; renders stay until newer ones push them out (a busy process may hear of a move
seconds late), except a seat's after it saves a rack order or draft, which the version does not
count (``forget_seat``).  News that leaves the version as it
was (a finished game's next game dealt, a rematch table made) is shared the same way under its
own tag, read afresh once per process.  Only a socket that connects reads on its own.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string

from games import presenters
from games.engine import get_game
from games.hot_reads import table_seats
from games.models import Action, Game, Seat
from games.play.page_parts import Parts, Rendered, part_names, render_parts
from games.presenters.fragment_reuse import ReuseMismatch
from remi_site.socket_locale import run_in_locale

if TYPE_CHECKING:
    from games.play.services import Played

# A viewer's language and time zone (remi_site.socket_locale.viewer_locale): renders are
# shared only between sockets of the same locale, so each page stays in its own language.
Locale = tuple[str, Any]
ENGLISH: Locale = ("en", None)
# A render is shared by: game, version, seat (None: the spectators), locale, news tag.
RenderKey = tuple[int, int, int | None, Locale, str]

Kept = TypeVar("Kept")  # what a store of renders keeps

# The parts alike for every viewer are shared by: game, version, locale, news tag.
AlikeKey = tuple[int, int, Locale, str]

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


def read_snapshot(game_id: int, before: Snapshot | None = None) -> Snapshot | None:
    """The game as it is now (three queries), or None when it no longer exists.  With
    ``before``, an older snapshot of it, only the log's newer rows are read."""
    game = presenters.read_game(game_id)
    if game is None:
        return None
    seats = table_seats(game.table_id)
    return snapshot_of(game, seats, get_game(game.table.game_type).load(game.state), before)


def snapshot_of(
    game: Game, seats: list[Seat], state: Any, before: Snapshot | None = None
) -> Snapshot:
    """The snapshot of ``game`` (with its table) whose seats (with their users) and loaded
    state are in hand, as a move leaves them; its log is one query."""
    return Snapshot(
        game=game,
        seats=seats,
        actions=log_since(game, before),
        state=state,
        template=presenters.presenter_for(game.table.game_type).template,
        read_at=time.monotonic(),
    )


def log_since(game: Game, before: Snapshot | None) -> list[Action]:
    """The log's latest actions up to ``game``'s version, oldest first: when ``before`` is an
    older snapshot of this game, its log with the rows of the versions since added.  A
    snapshot's log is the latest rows up to its version, and rows never change once written:
    the objects are shared, so the viewers' log entries are only worded for the new rows
    (``presenters.log_entries``), and a move reads one row, not forty."""
    version = game.version
    if (
        before is None
        or before.game.pk != game.pk
        or before.game.version > version
        or not _log_within(before)
    ):
        return presenters.recent_actions(game, up_to=version)
    if before.game.version == version:
        return before.actions
    newer = presenters.recent_actions(game, up_to=version, after=before.game.version)
    return [*before.actions, *newer][-presenters.LOG_ACTIONS :]


def _log_within(snapshot: Snapshot) -> bool:
    """Whether the snapshot's log stops at its version, as its reads make it (a snapshot
    made otherwise, with a newer row in its log, is not built on)."""
    return not snapshot.actions or snapshot.actions[-1].version <= snapshot.game.version


def snapshot_after(played: Played) -> Snapshot:
    """The snapshot a move leaves.  Its log is the one this process kept of the version before
    with the move's own row added, when it has that one (the log's rows never change once
    written); otherwise it is read (one query)."""
    game = played.game
    before = SHARED.kept(game.pk, game.version - 1)
    if before is None or not _log_within(before):
        return snapshot_of(game, played.seats, played.state)
    return Snapshot(
        game=game,
        seats=played.seats,
        actions=[*before.actions, played.action][-presenters.LOG_ACTIONS :],
        state=played.state,
        template=before.template,
        read_at=time.monotonic(),
    )


def viewer_context(snapshot: Snapshot, seat: int | None) -> dict[str, Any]:
    """The template context of ``snapshot`` for ``seat`` (None: a spectator)."""
    return presenters.game_context(
        snapshot.game, snapshot.seats, seat, actions=snapshot.actions, state=snapshot.state
    )


def render_updates(snapshot: Snapshot, seat: int | None) -> str:
    """The page's whole ``updates`` for ``seat`` (None: a spectator), rendered in one piece:
    what a socket's parts add up to when it is sent every one of them."""
    context = viewer_context(snapshot, seat)
    return render_to_string(f"{snapshot.template}#updates", presenters.swapped_in(context))


def _check_alike(known: dict[str, str], own: Parts, seat: int) -> None:
    for name, html in own:
        if known[name] != html:
            raise ReuseMismatch(f"the part {name!r} alike for every viewer differs for seat {seat}")


_FAILED = object()  # the shared render raised: each waiting socket renders on its own

# Viewers' renders kept at most, the oldest made dropped first: a process holding 400
# players' sockets keeps about three versions of each (some 20 KB apiece in all).
MAX_RENDERS = 1200


class Viewers:
    """Per process: whom this process's sockets on each game show it to (a seat, or None for
    the spectators) and in which language, so that the move's own hop can render for them
    before they hear of it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # added on the event loop, read in worker threads
        self._by_game: dict[int, Counter[tuple[int | None, Locale]]] = {}

    def add(self, game_id: int, seat: int | None, locale: Locale) -> None:
        with self._lock:
            self._by_game.setdefault(game_id, Counter())[(seat, locale)] += 1

    def remove(self, game_id: int, seat: int | None, locale: Locale) -> None:
        with self._lock:
            viewers = self._by_game.get(game_id)
            if viewers is None:
                return
            viewers[(seat, locale)] -= 1
            if viewers[(seat, locale)] <= 0:
                del viewers[(seat, locale)]
            if not viewers:
                del self._by_game[game_id]

    def of(self, game_id: int) -> list[tuple[int | None, Locale]]:
        with self._lock:
            return list(self._by_game.get(game_id, ()))


VIEWERS = Viewers()


def seat_stamp(snapshot: Snapshot, seat: int | None) -> Any:
    """What ``seat``'s parts show that the version does not count: its rack order or draft,
    saved over HTTP (``Seat.rack_order``)."""
    if seat is None:
        return None
    return next((s.rack_order for s in snapshot.seats if s.position == seat), None)


class SharedViews:
    """Per process: the latest snapshot of each game, the parts every viewer sees alike per
    (game, version, language), and each viewer's parts per (game, version, seat, language)."""

    def __init__(self, seconds: float = SHARED_SECONDS) -> None:
        self.seconds = seconds
        # By game and news tag ("" for moves): news is read afresh, once, under its own tag.
        self._snapshots: dict[tuple[int, str], Snapshot] = {}
        self._lock = threading.Lock()  # the snapshots are read and written in worker threads
        # Made in worker threads, read on the loop: under the lock.
        self._done: OrderedDict[RenderKey, Rendered] = OrderedDict()
        self._public: OrderedDict[AlikeKey, Rendered] = OrderedDict()
        # The parts alike for every viewer (``Presentation.public_parts``), by name, from the
        # first render of a version in a language: a seat's or the spectators'.
        self._alike: OrderedDict[AlikeKey, dict[str, str]] = OrderedDict()
        # Only touched on the event loop's thread.
        self._renders: dict[RenderKey, asyncio.Future[Any]] = {}
        self.reads = 0  # snapshots read, for the tests and the bench
        self.renders = 0  # viewers' parts rendered
        self.public_renders = 0  # the parts alike for all rendered (once per version, language)

    def snapshot(self, game_id: int, version: int, news: str = "") -> Snapshot | None:
        """A snapshot at ``version`` or later, read now unless a recent one will do; with
        ``news``, one read after that news arrived (the first socket to ask reads it)."""
        now = time.monotonic()
        key = (game_id, news)
        with self._lock:
            kept = self._snapshots.get(key)
        if kept is not None and kept.game.version >= version and now - kept.read_at < self.seconds:
            return kept
        fresh = read_snapshot(game_id, kept)
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

    def prerender(self, snapshot: Snapshot, mover: int | None = None) -> None:
        """In the move's own hop, after it is saved and before the news goes out: every
        viewer this process has a socket for gets its parts rendered now, so that its socket
        sends them as soon as it hears of the move, with no hop and no render of its own.
        The ``mover``'s seat is left for after the news (its answer is the one part of the
        hop no other seat waits for)."""
        # The spectators first: their render's alike parts then serve every seat.
        viewers = sorted(VIEWERS.of(snapshot.game.pk), key=lambda v: v[0] is not None)
        for seat, locale in viewers:
            if seat is None or seat != mover:
                self.rendered(snapshot, seat, locale)

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

    def _recent(self, store: OrderedDict[Any, Kept], key: Any) -> Kept | None:
        # Not aged like the snapshots: a version's parts stay right while it is the game's
        # version (a busy process may hear of a move seconds after its hop rendered it, and
        # must not render it again), but for a seat's rack order or draft, saved over HTTP
        # without a new version: ``forget_seat``.
        with self._lock:
            return store.get(key)

    def forget_seat(self, game_id: int, seat: int) -> None:
        """The seat saved a rack order or a draft: its parts rendered here are out of date."""
        with self._lock:
            for key in [k for k in self._done if k[0] == game_id and k[2] == seat]:
                del self._done[key]

    def _store(self, store: OrderedDict[Any, Kept], key: Any, value: Kept) -> None:
        with self._lock:
            store[key] = value
            store.move_to_end(key)
            while len(store) > MAX_RENDERS:
                store.popitem(last=False)

    def ready(self, key: RenderKey) -> Rendered | None:
        """The parts for ``key`` if they were rendered here and are still kept."""
        return self._recent(self._done, key)

    def rendered(
        self, snapshot: Snapshot, seat: int | None, locale: Locale, news: str = ""
    ) -> Rendered:
        """``seat``'s parts (None: a spectator's) of ``snapshot`` in ``locale``: the parts
        alike for everyone from the one render for them, the rest rendered for the seat.
        Kept for every socket of the process that asks."""
        game = snapshot.game
        key: RenderKey = (game.pk, game.version, seat, locale, news)
        done = self.ready(key)
        if done is not None:
            return done
        if seat is None:
            result = self._public_parts(snapshot, locale, news)
        else:
            alike_key = (game.pk, game.version, locale, news)
            result = run_in_locale(locale, self._seat_parts, snapshot, seat, alike_key)
        self._store(self._done, key, result)
        return result

    def _public_parts(self, snapshot: Snapshot, locale: Locale, news: str) -> Rendered:
        """A spectator's parts, of which the presentation's ``public_parts`` are every
        viewer's too: rendered once per game, version, language (and news)."""
        game = snapshot.game
        key = (game.pk, game.version, locale, news)
        done = self._recent(self._public, key)
        if done is None:
            done = run_in_locale(locale, self._spectator_parts, snapshot)
            self._store(self._public, key, done)
            self._keep_alike(snapshot, key, done.parts)
        return done

    def _keep_alike(self, snapshot: Snapshot, key: AlikeKey, parts: Parts) -> None:
        alike = presenters.presenter_for(snapshot.game.table.game_type).public_parts
        if self._recent(self._alike, key) is None:
            self._store(self._alike, key, {n: html for n, html in parts if n in alike})

    def _spectator_parts(self, snapshot: Snapshot) -> Rendered:
        context = viewer_context(snapshot, None)
        with self._lock:
            self.renders += 1  # the spectators' render, whose alike parts every seat shares
            self.public_renders += 1
        return Rendered(snapshot.game.version, render_parts(snapshot.template, context))

    def _seat_parts(self, snapshot: Snapshot, seat: int, alike_key: AlikeKey) -> Rendered:
        """``seat``'s parts: the alike ones from the version's first render (a spectator's
        or another seat's: the same bytes, which the tests check), the rest its own.  A seat
        does not pay for a spectators' render nobody watches, nor for the alike parts again
        (the discard row alone is a third of a seat's parts)."""
        context = viewer_context(snapshot, seat)
        with self._lock:
            self.renders += 1
        stamp = seat_stamp(snapshot, seat)
        version = snapshot.game.version
        template = snapshot.template
        known = self._recent(self._alike, alike_key)
        if known is None:
            parts = render_parts(template, context)
            self._keep_alike(snapshot, alike_key, parts)
            return Rendered(version, parts, stamp)
        names = part_names(template)
        if settings.FRAGMENT_REUSE_CHECK:  # on in the tests: every alike part served is checked
            _check_alike(known, render_parts(template, context, list(known)), seat)
        own = dict(render_parts(template, context, [n for n in names if n not in known]))
        return Rendered(
            version, tuple((n, known[n] if n in known else own[n]) for n in names), stamp
        )

    def _render(self, key: RenderKey) -> Rendered | None:
        game_id, version, seat, locale, news = key
        snapshot = self.snapshot(game_id, version, news)
        if snapshot is None:
            return None
        return self.rendered(snapshot, seat, locale, news)

    async def updates(
        self,
        game_id: int,
        version: int,
        seat: int | None,
        locale: Locale = ENGLISH,
        news: str = "",
    ) -> Rendered | None:
        """``seat``'s parts (None: a spectator's) at ``version`` or later, in ``locale``;
        None when the game is gone.  Rendered once per process for everyone with the same key
        who asks within a few seconds (in the move's own hop, when the move was made here).
        ``news`` names what changed without a move (``game.next_dealt``): read afresh once
        for it, then shared."""
        key: RenderKey = (game_id, version, seat, locale, news)
        done = self.ready(key)
        if done is not None:
            return done
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
            self._done.clear()
            self._public.clear()
            self._alike.clear()
        self._renders.clear()


SHARED = SharedViews()
