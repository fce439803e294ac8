"""The lobby socket, through the real Redis channel layer: every committed table change
re-renders the public list (or one table's seats) as an out-of-band swap.

These tests use transactional databases: the services publish after commit, and only a
real commit runs on_commit callbacks."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.tables import lifecycle
from games.tables.lobby_presenters import LOBBY_PAGE_SIZE
from remi_site.asgi import application

# The lobby writes a range of tables with an en dash between the numbers.
DASH = "\N{EN DASH}"

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")  # a browser always says which site it asked for


def session_cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def run(scenario: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    return async_to_sync(scenario)(*args)


async def connect(path: str, user=None) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST]
    if user is not None:
        headers.append(await database_sync_to_async(session_cookie)(user))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


def table_ids(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'data-table-id="(\d+)"', html)}


def test_the_lobby_socket_sends_the_list_on_connect(alice):
    table = lifecycle.create_table(alice, seat_count=2)

    async def scenario() -> str:
        communicator = await connect("/ws/lobby/")
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    html = run(scenario)
    # Two out-of-band swaps: the viewer's own tables (none for a visitor) and the open list.
    assert html.lstrip().startswith('<div id="my-tables" hx-swap-oob="true">')
    assert '<div id="open-tables" hx-swap-oob="true">' in html
    assert table_ids(html) == {table.pk}


def test_the_lobby_socket_updates_the_tables_i_sit_at(alice, bob):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)

    async def scenario() -> tuple[str, str]:
        communicator = await connect("/ws/lobby/", alice)
        before = await communicator.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.join_table)(table, bob)
        await database_sync_to_async(lifecycle.start_table)(table, alice)
        await communicator.receive_from(timeout=5)
        after = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return before, after

    before, after = run(scenario)
    mine_before = before.split('id="open-tables"')[0]
    mine_after = after.split('id="open-tables"')[0]
    assert f'data-table-id="{table.pk}" data-status="open"' in mine_before
    assert "bob" not in mine_before
    assert f'data-table-id="{table.pk}" data-status="playing"' in mine_after
    assert "bob" in mine_after and "Go to the game" in mine_after
    # The private table is in Alice's own list, never in the public one.
    assert table.pk not in table_ids(after.split('id="open-tables"')[1])


def test_a_new_table_reaches_every_connected_lobby(alice):
    async def scenario() -> tuple[str, str, Table]:
        first = await connect("/ws/lobby/")
        second = await connect("/ws/lobby/", alice)
        for communicator in (first, second):
            assert table_ids(await communicator.receive_from(timeout=5)) == set()
        table = await database_sync_to_async(lifecycle.create_table)(alice, seat_count=3)
        seen = [await c.receive_from(timeout=5) for c in (first, second)]
        for communicator in (first, second):
            await communicator.disconnect()
        return seen[0], seen[1], table

    for_visitor, for_alice, table = run(scenario)
    for html in (for_visitor, for_alice):
        assert 'id="open-tables" hx-swap-oob="true"' in html
        assert table_ids(html) == {table.pk}
    # Each socket renders for its own viewer.
    assert "Log in to join" in for_visitor
    assert "Your table" in for_alice and "Log in to join" not in for_alice


def test_joining_and_starting_update_the_list(alice, bob):
    table = lifecycle.create_table(alice, seat_count=2)

    async def scenario() -> list[str]:
        communicator = await connect("/ws/lobby/")
        await communicator.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.join_table)(table, bob)
        filled = await communicator.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.start_table)(table, alice)
        started = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return [filled, started]

    filled, started = run(scenario)
    assert 'data-free-seats="0"' in filled
    assert "bob" in filled
    assert table_ids(started) == set()  # a started table leaves the open list


def test_a_private_table_never_reaches_the_lobby_socket(alice):
    async def scenario() -> tuple[str, Table]:
        communicator = await connect("/ws/lobby/")
        await communicator.receive_from(timeout=5)
        table = await database_sync_to_async(lifecycle.create_table)(
            alice, seat_count=2, is_public=False
        )
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html, table

    html, table = run(scenario)
    assert table.pk not in table_ids(html)
    assert table.invite_code not in html


def test_garbage_frames_are_ignored_and_the_socket_keeps_working(alice):
    async def scenario() -> str:
        communicator = await connect("/ws/lobby/")
        await communicator.receive_from(timeout=5)
        for frame in ("nonsense", '{"type": "lobby.changed"}', "{", "x" * 100_000):
            await communicator.send_to(text_data=frame)
        await communicator.send_to(bytes_data=b"\x00\xff\xfe")
        assert await communicator.receive_nothing(timeout=0.3)
        await database_sync_to_async(lifecycle.create_table)(alice, seat_count=2)
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    assert len(table_ids(run(scenario))) == 1


def test_a_forged_query_string_gets_the_plain_lobby(alice):
    table = lifecycle.create_table(alice, seat_count=2)

    async def scenario() -> str:
        communicator = await connect(
            "/ws/lobby/?table=%FF%00&seen=<script>&table=99999999999999999999"
        )
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    html = run(scenario)
    assert 'id="open-tables"' in html
    assert table_ids(html) == {table.pk}


def test_a_table_page_socket_shows_new_seats_and_takes_players_to_the_game(alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=3)
    lifecycle.join_table(table, bob)

    async def scenario() -> dict[str, Any]:
        owner = await connect(f"/ws/lobby/?table={table.pk}&seen=open", alice)
        player = await connect(f"/ws/lobby/?table={table.pk}&seen=open", bob)
        seen: dict[str, Any] = {"waiting": await owner.receive_from(timeout=5)}
        await player.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.join_table)(table, carol)
        seen["full"] = await owner.receive_from(timeout=5)
        await player.receive_from(timeout=5)
        game = await database_sync_to_async(lifecycle.start_table)(table, alice)
        seen["owner_started"] = await owner.receive_from(timeout=5)
        seen["player_started"] = await player.receive_from(timeout=5)
        # Another table's change re-renders this one, without sending the player again.
        await database_sync_to_async(lifecycle.create_table)(carol, seat_count=2)
        seen["player_later"] = await player.receive_from(timeout=5)
        for communicator in (owner, player):
            await communicator.disconnect()
        seen["game_url"] = reverse("games:game", args=[game.pk])
        return seen

    seen = run(scenario)
    game_url = seen["game_url"]
    assert seen["waiting"].lstrip().startswith('<section id="table-live"')
    assert 'hx-swap-oob="true"' in seen["waiting"]
    assert re.search(r'id="start-game" disabled', seen["waiting"])
    assert "carol" in seen["full"]
    assert re.search(r'<button type="submit" id="start-game">', seen["full"])
    # The player is sent on to the game; the owner's Start button already took them there.
    assert game_url in seen["player_started"]
    assert 'hx-trigger="load"' in seen["player_started"]
    assert game_url in seen["owner_started"]
    assert 'hx-trigger="load"' not in seen["owner_started"]
    assert game_url in seen["player_later"]
    assert 'hx-trigger="load"' not in seen["player_later"]


def test_a_table_socket_shows_nothing_of_a_private_table_to_an_outsider(alice, carol):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)

    async def scenario() -> str:
        communicator = await connect(f"/ws/lobby/?table={table.pk}", carol)
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    html = run(scenario)
    assert 'data-status="gone"' in html
    assert "Alice" not in html
    assert table.invite_code not in html


def test_a_table_socket_shows_nothing_of_a_private_table_with_a_bot_to_a_visitor(alice):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False, bots=["easy"])

    async def scenario() -> str:
        communicator = await connect(f"/ws/lobby/?table={table.pk}")
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    html = run(scenario)
    assert 'data-status="gone"' in html
    assert "Alice" not in html
    assert "Bot" not in html
    assert table.invite_code not in html


def test_a_closed_table_tells_its_page(alice, bob):
    table = lifecycle.create_table(alice, seat_count=3)
    lifecycle.join_table(table, bob)

    async def scenario() -> str:
        communicator = await connect(f"/ws/lobby/?table={table.pk}&seen=open", bob)
        await communicator.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.leave_table)(table, alice)
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    assert "This table was closed." in run(scenario)


def test_a_burst_of_changes_ends_with_the_list_after_the_last(alice, bob, carol):
    """Changes that arrive while the lobby is being rendered are answered together by the
    next render (``remi_site.audiences``): fewer frames than changes, perhaps, but the last
    one shows every change, and nothing comes after it."""

    async def scenario() -> list[str]:
        communicator = await connect("/ws/lobby/")
        await communicator.receive_from(timeout=5)
        for owner in (alice, bob, carol):
            await database_sync_to_async(lifecycle.create_table)(owner, seat_count=2)
        seen = [await communicator.receive_from(timeout=5)]
        while len(table_ids(seen[-1])) < 3:
            seen.append(await communicator.receive_from(timeout=5))
        # A change heard as a refresh that already read it began is answered once more.
        while not await communicator.receive_nothing(timeout=0.5):
            seen.append(await communicator.receive_from(timeout=5))
        await communicator.disconnect()
        return seen

    seen = run(scenario)
    # At most one frame per change; once one shows all three, every later one does too.
    assert 1 <= len(seen) <= 3
    shown = [len(table_ids(html)) for html in seen]
    assert shown[-1] == 3 and shown == sorted(shown)


def test_a_lobby_socket_keeps_showing_the_page_its_viewer_is_on(settings, alice, bob):
    settings.MAX_OPEN_TABLES_PER_USER = LOBBY_PAGE_SIZE + 5
    oldest_first = [lifecycle.create_table(alice, seat_count=2) for _ in range(LOBBY_PAGE_SIZE + 2)]

    async def scenario() -> tuple[str, str]:
        communicator = await connect("/ws/lobby/?page=2", bob)
        on_connect = await communicator.receive_from(timeout=5)
        await database_sync_to_async(lifecycle.create_table)(bob, seat_count=2)
        after_new_table = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return on_connect, after_new_table

    on_connect, after_new_table = run(scenario)
    assert table_ids(on_connect) == {t.pk for t in oldest_first[:2]}
    size = LOBBY_PAGE_SIZE
    assert f"Tables {size + 1}{DASH}{size + 2} of {size + 2}" in on_connect
    # A new table pushes the oldest ones further down: page 2 now holds three.
    assert table_ids(after_new_table.split('id="open-tables"')[1]) == {
        t.pk for t in oldest_first[:3]
    }
    assert f"Tables {size + 1}{DASH}{size + 3} of {size + 3}" in after_new_table
