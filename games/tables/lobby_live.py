"""What the lobby's and the table pages' sockets of one process are sent after a change: the
tables read once, and each part rendered once per kind of viewer.

A change in the lobby (a table created, filled, started, closed) reaches every lobby socket.
Each socket used to read the tables (six queries) and render the lobby for its own viewer, so
one change cost a read and a render per open socket, on the thread every socket's database
work shares: with 300 idle lobby sockets a game's move waited seconds behind them (issue 27,
fault 5).  Here :func:`refresh` serves all the owed sockets of the process at once
(``remi_site.audiences``): one read for all of them, then each part of the page rendered once
per key, and the same text sent to every socket of that key.

What a part shows depends on the page (which page of the list, which table) and the language,
on whether the viewer is logged in (a visitor is asked to log in to join) and on where the
viewer sits.  Cards are read as nobody in particular sees them; a viewer who sits at none of
the tables a part shows sees exactly that, so the part is shared by every such viewer of the
same language and kind, rendered with a stand-in viewer that holds nothing of anybody.  Only a
part that shows one of the viewer's own tables (their seat marked, their Leave and Start
buttons, their list of tables, private ones included) is rendered for that viewer, once for all
of their sockets, from the same read.  A private table reaches nobody who does not sit at it.

The lobby's parts show no times, so they are shared across time zones and rendered in the
site's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import translation

from games.models import Table
from games.tables import lobby_presenters as present
from games.tables.lobby_presenters import LobbyPage, TableCard
from remi_site.audiences import list_work

if TYPE_CHECKING:
    from games.tables.lobby_consumers import LobbyConsumer

# The lobby's live parts, in the order a socket sends them.
LOBBY_PARTS = ("my-tables", "open-tables", "live-games")

# A part's key: everything its HTML depends on.  Sockets with equal keys are sent one render.
PartKey = tuple[Any, ...]


class Member:
    """The viewer a part shared by logged-in players is rendered for: logged in, nobody in
    particular.  A template that asked it for anything personal would get nothing."""

    is_authenticated = True
    is_anonymous = False
    pk = None
    id = None

    def __str__(self) -> str:
        return ""


MEMBER = Member()
VISITOR = AnonymousUser()


@dataclass(frozen=True)
class Reading:
    """The tables as one refresh reads them for one language, seen by nobody in particular."""

    pages: dict[int, LobbyPage]  # by the page number a socket asked for
    live: list[TableCard]
    mine: dict[int, list[TableCard]]  # by viewer id, as that viewer sees them
    tables: dict[int, TableCard]  # for the table pages, by id; a closed table is missing


def read(
    language: str, page_numbers: set[int], viewer_ids: set[int], table_ids: set[int]
) -> Reading:
    """Everything the owed sockets in ``language`` show, read once for all of them.  The
    cards are worded as they are read (a table's rules, pace and status), so each language
    has a read of its own."""
    with translation.override(language):
        return _read(page_numbers, viewer_ids, table_ids)


def _read(page_numbers: set[int], viewer_ids: set[int], table_ids: set[int]) -> Reading:
    pages, live = present.lobby_lists(sorted(page_numbers)) if page_numbers else ({}, [])
    return Reading(
        pages=pages,
        live=live,
        mine=present.tables_of_each(viewer_ids) if page_numbers else {},
        tables={
            card.id: card
            for card in (
                present.table_card(table, None)
                for table in present.tables().filter(pk__in=table_ids)
            )
        }
        if table_ids
        else {},
    )


def render_part(template: str, language: str, context: dict[str, Any]) -> str:
    with translation.override(language):
        return render_to_string(template, {**context, "oob": True})


@dataclass(frozen=True)
class Part:
    key: PartKey
    template: str
    context: Callable[[], dict[str, Any]]  # made only when the key is not rendered yet


def _sits_at_any(cards: Iterable[TableCard], viewer_id: int | None) -> bool:
    return viewer_id is not None and any(present.seat_of(c, viewer_id) is not None for c in cards)


def _seen_page(page: LobbyPage, viewer_id: int | None) -> LobbyPage:
    return replace(page, cards=[present.seen_by(card, viewer_id) for card in page.cards])


def lobby_parts(socket: LobbyConsumer, reading: Reading) -> list[Part]:
    """A lobby page socket's parts: the viewer's own tables, the page of open tables it is
    on, the games being played."""
    language, viewer_id = socket.language, socket.viewer_id
    kind = "member" if viewer_id is not None else "visitor"
    shared_viewer = MEMBER if viewer_id is not None else VISITOR
    viewer = socket.scope.get("user")
    parts = []

    mine = reading.mine.get(viewer_id) if viewer_id is not None else None
    if mine:
        parts.append(
            Part(
                ("my-tables", language, viewer_id),
                "games/lobby.html#my-tables",
                lambda: {"my_tables": mine, "viewer": viewer},
            )
        )
    else:
        parts.append(
            Part(
                ("my-tables", language, kind),
                "games/lobby.html#my-tables",
                lambda: {"my_tables": [], "viewer": shared_viewer},
            )
        )

    page = reading.pages[socket.page_number]
    if _sits_at_any(page.cards, viewer_id):
        parts.append(
            Part(
                ("open-tables", language, page.number, viewer_id),
                "games/lobby.html#open-tables",
                lambda: {"page": _seen_page(page, viewer_id), "viewer": viewer},
            )
        )
    else:
        parts.append(
            Part(
                ("open-tables", language, page.number, kind),
                "games/lobby.html#open-tables",
                lambda: {"page": page, "viewer": shared_viewer},
            )
        )

    live = reading.live
    if _sits_at_any(live, viewer_id):
        parts.append(
            Part(
                ("live-games", language, viewer_id),
                "games/lobby.html#live-games",
                lambda: {
                    "live_games": [present.seen_by(c, viewer_id) for c in live],
                    "viewer": viewer,
                },
            )
        )
    else:
        parts.append(
            Part(
                ("live-games", language, kind),
                "games/lobby.html#live-games",
                lambda: {"live_games": live, "viewer": shared_viewer},
            )
        )
    return parts


def table_part(socket: LobbyConsumer, reading: Reading) -> tuple[Part, str | None]:
    """A table page socket's part, and the table's status as it shows it (None: gone, or not
    for this viewer)."""
    language, viewer_id = socket.language, socket.viewer_id
    card = reading.tables.get(socket.table_id) if socket.table_id is not None else None
    seated = card is not None and (
        present.seat_of(card, viewer_id) is not None
        or (viewer_id is not None and viewer_id == card.owner_id)
    )
    template = "games/table.html#table-live"
    if card is None or not (card.is_public or seated):
        # Closed, or private and not the viewer's: the same "closed" note for everyone.
        part = Part(("table-gone", language), template, lambda: {"card": None, "viewer": VISITOR})
        return part, None
    if seated:
        follow = socket.seen_status == Table.Status.OPEN
        viewer = socket.scope.get("user")
        part = Part(
            ("table", card.id, language, viewer_id, follow),
            template,
            lambda: {"card": present.seen_by(card, viewer_id), "viewer": viewer, "follow": follow},
        )
        return part, card.status
    kind = "member" if viewer_id is not None else "visitor"
    shared_viewer = MEMBER if viewer_id is not None else VISITOR
    # Not seated: the page never sends this viewer to the game, whatever it last showed.
    part = Part(
        ("table", card.id, language, kind),
        template,
        lambda: {"card": card, "viewer": shared_viewer, "follow": False},
    )
    return part, card.status


class Renders:
    """The parts rendered in one language during one refresh, by key, and the texts made of
    them: each key is rendered once, each combination joined once."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.parts: dict[PartKey, str] = {}
        self.texts: dict[tuple[PartKey, ...], str] = {}
        self._render = list_work(render_part)

    async def text_of(self, parts: list[Part]) -> str:
        keys = tuple(part.key for part in parts)
        if keys not in self.texts:
            for part in parts:
                if part.key not in self.parts:
                    context = part.context()
                    self.parts[part.key] = await self._render(part.template, self.language, context)
            self.texts[keys] = "".join(self.parts[key] for key in keys)
        return self.texts[keys]


async def refresh(sockets: list[LobbyConsumer]) -> list[tuple[LobbyConsumer, str]]:
    """What to send each of the owed sockets: read once per language, each part rendered
    once per key."""
    by_language: dict[str, list[LobbyConsumer]] = {}
    for socket in sockets:
        by_language.setdefault(socket.language, []).append(socket)
    sends = []
    for language, alike in by_language.items():
        on_lobby = [s for s in alike if s.table_id is None]
        on_tables = [s for s in alike if s.table_id is not None]
        reading = await list_work(read)(
            language,
            {s.page_number for s in on_lobby},
            {s.viewer_id for s in on_lobby if s.viewer_id is not None},
            {s.table_id for s in on_tables if s.table_id is not None},
        )
        renders = Renders(language)
        for socket in on_lobby:
            sends.append((socket, await renders.text_of(lobby_parts(socket, reading))))
        for socket in on_tables:
            part, status = table_part(socket, reading)
            sends.append((socket, await renders.text_of([part])))
            if status is not None:
                socket.seen_status = status
    return sends
