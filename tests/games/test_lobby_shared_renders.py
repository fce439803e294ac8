"""Issue 27, fault 5: the lobby's and the table pages' sockets of one process share one read
and one render per part and kind of viewer after a change, never one per socket, and each
socket still gets exactly what a render for its own viewer shows.

Through the real Redis channel layer, in one process (the test's), with transactional
databases: the services announce changes after commit."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games.play import news
from games.tables import lifecycle
from games.tables import lobby_presenters as present
from remi_site.asgi import application
from tests.conftest import make_user
from tests.games.test_lobby_consumer import HOST, ORIGIN, session_cookie, table_ids
from tests.partial_renders import counted_renders

pytestmark = pytest.mark.django_db(transaction=True)

ROMANIAN = (b"accept-language", b"ro")


@pytest.fixture
def renders() -> Iterator[Counter[str]]:
    with counted_renders() as counts:
        yield counts


async def open_socket(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST, *headers])
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


def lobby_for(viewer: Any, language: str, page: int = 1) -> str:
    """What one viewer's own render of the lobby's live parts shows (``render_lobby``, as
    every socket used to render on its own)."""
    with translation.override(language):
        return present.render_lobby(viewer, page)


def table_for(table_id: int, viewer: Any, language: str, follow: bool) -> str:
    with translation.override(language):
        return present.render_table_live(table_id, viewer, follow)[0]


def test_one_change_renders_the_lobby_once_per_language_and_kind_of_viewer(
    renders, alice, bob, carol
):
    """Eleven lobby sockets, one change: each part is rendered once for the visitors in
    English, once for those in Romanian, once for logged-in players who sit at none of the
    tables shown, and once for Alice, whose new table is on the page; not eleven times."""
    dave = make_user("dave", time_zone="America/New_York")  # no times in the lobby: shared
    viewers: list[tuple[str, Any, list[tuple[bytes, bytes]]]] = [
        *(("en", None, []) for _ in range(4)),
        *(("ro", None, [ROMANIAN]) for _ in range(3)),
        *(("en", user, [session_cookie(user)]) for user in (bob, carol, dave)),
        ("en", alice, [session_cookie(alice)]),
    ]

    async def scenario() -> list[str]:
        sockets = [await open_socket("/ws/lobby/", headers) for _, _, headers in viewers]
        for socket in sockets:
            await socket.receive_from(timeout=5)
        renders.clear()
        await database_sync_to_async(lifecycle.create_table)(alice, seat_count=2)
        seen = [await socket.receive_from(timeout=5) for socket in sockets]
        assert all([await socket.receive_nothing(timeout=0.2) for socket in sockets])
        for socket in sockets:
            await socket.disconnect()
        return seen

    seen = async_to_sync(scenario)()
    # visitors in English, in Romanian; players seated nowhere shown; Alice at her table.
    assert renders["open-tables"] == 4
    assert renders["my-tables"] == 4  # Alice's list has her table; everyone else's is empty
    assert renders["live-games"] == 3  # nobody plays yet: Alice sees what other players see
    for (language, viewer, _), html in zip(viewers, seen, strict=True):
        assert html == lobby_for(viewer or AnonymousUser(), language)
    assert "Log in to join" in seen[0] and "Your table" in seen[-1]
    assert seen[4] != seen[0]  # in Romanian


def test_a_private_table_reaches_only_the_lobby_of_who_sits_at_it(renders, alice, bob):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)
    alices, bobs = session_cookie(alice), session_cookie(bob)

    async def scenario() -> tuple[str, str, str]:
        owner = await open_socket("/ws/lobby/", [alices])
        stranger = await open_socket("/ws/lobby/", [bobs])
        visitor = await open_socket("/ws/lobby/", [])
        for socket in (owner, stranger, visitor):
            await socket.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.create_table)(bob, seat_count=2)
        seen = [await s.receive_from(timeout=5) for s in (owner, stranger, visitor)]
        for socket in (owner, stranger, visitor):
            await socket.disconnect()
        return seen[0], seen[1], seen[2]

    for_owner, for_stranger, for_visitor = async_to_sync(scenario)()
    assert f'data-table-id="{table.pk}"' in for_owner
    for html in (for_stranger, for_visitor):
        assert table.pk not in table_ids(html)
        assert table.invite_code not in html
        assert "private" not in html


def test_sockets_on_other_pages_of_the_lobby_get_their_own_page(renders, settings, alice, bob):
    settings.MAX_OPEN_TABLES_PER_USER = present.LOBBY_PAGE_SIZE + 5
    for _ in range(present.LOBBY_PAGE_SIZE + 2):
        lifecycle.create_table(alice, seat_count=2)
    paths = ["/ws/lobby/", "/ws/lobby/?page=2", "/ws/lobby/?page=2", "/ws/lobby/?page=99"]

    async def scenario() -> list[str]:
        sockets = [await open_socket(path, []) for path in paths]
        for socket in sockets:
            await socket.receive_from(timeout=5)
        renders.clear()
        await database_sync_to_async(lifecycle.create_table)(bob, seat_count=2)
        seen = [await socket.receive_from(timeout=5) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return seen

    first, second, again, past_the_end = async_to_sync(scenario)()
    # A number past the end shows the last page: the same render as page 2's.
    assert renders["open-tables"] == 2
    assert second == again == past_the_end
    assert first == lobby_for(AnonymousUser(), "en", 1)
    assert second == lobby_for(AnonymousUser(), "en", 2)


def test_table_page_sockets_share_a_render_unless_the_viewer_sits_at_the_table(
    renders, alice, bob, carol
):
    table = lifecycle.create_table(alice, seat_count=3)
    lifecycle.join_table(table, bob)
    path = f"/ws/lobby/?table={table.pk}&seen=open"
    viewers: list[tuple[Any, list[tuple[bytes, bytes]]]] = [
        *((None, []) for _ in range(3)),
        (carol, [session_cookie(carol)]),
        (carol, [session_cookie(carol)]),
        (alice, [session_cookie(alice)]),
        (bob, [session_cookie(bob)]),
    ]

    async def scenario() -> list[str]:
        sockets = [await open_socket(path, headers) for _, headers in viewers]
        for socket in sockets:
            await socket.receive_from(timeout=5)
        renders.clear()
        await database_sync_to_async(lifecycle.create_table)(carol, seat_count=2)
        seen = [await socket.receive_from(timeout=5) for socket in sockets]
        for socket in sockets:
            await socket.disconnect()
        return seen

    seen = async_to_sync(scenario)()
    # Visitors, logged-in strangers, the owner, the seated player: four, not seven.
    assert renders["table-live"] == 4
    for (viewer, _), html in zip(viewers, seen, strict=True):
        assert html == table_for(table.pk, viewer or AnonymousUser(), "en", follow=True)
    assert 'id="start-game"' in seen[5] and 'id="leave-table"' in seen[6]
    assert 'id="join-table"' in seen[3] and "Log in to join" in seen[0]


def test_a_burst_of_changes_during_a_refresh_is_answered_by_one_more(alice):
    """Changes announced while a refresh waits for its thread are answered together by the
    next refresh: a burst of ten costs two renders and two frames, the last one read after
    the last change."""
    from remi_site.audiences import AUDIENCES, list_work

    table = lifecycle.create_table(alice, seat_count=2)
    busy = threading.Event()

    async def scenario() -> tuple[list[str], int]:
        socket = await open_socket("/ws/lobby/", [])
        await socket.receive_from(timeout=5)
        audience = AUDIENCES.get(news.LOBBY_GROUP)
        assert audience is not None
        before, heard = audience.refreshes, audience.heard
        # The lists' thread is held, so the first refresh waits there for its read while
        # the rest of the burst arrives.
        held = asyncio.ensure_future(list_work(busy.wait)())
        layer = get_channel_layer()
        await layer.group_send(news.LOBBY_GROUP, {"type": "lobby.changed"})
        await until(lambda: audience.refreshes > before)
        for _ in range(9):
            await layer.group_send(news.LOBBY_GROUP, {"type": "lobby.changed"})
        await until(lambda: audience.heard == heard + 10)  # all heard while the thread is held
        busy.set()
        await held
        seen = [await socket.receive_from(timeout=5) for _ in range(2)]
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
        return seen, audience.refreshes - before

    seen, refreshes = async_to_sync(scenario)()
    assert refreshes == 2
    assert all(table_ids(html) == {table.pk} for html in seen)
