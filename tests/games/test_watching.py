"""Watching: the lobby's "live now" list of public games in progress (live over the lobby
socket), and visitors who are not logged in watching a public game as spectators — its
page and its socket — while private tables stay out of both."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from games.engine import GAMES
from games.play import services
from games.tables import lifecycle
from tests.games.test_deal_verification import play_out, start
from tests.games.test_game_consumer import rack_tiles, socket
from tests.games.test_lobby_consumer import connect

pytestmark = pytest.mark.django_db(transaction=True)


def live_tables(html: str) -> set[int]:
    match = re.search(r'<div id="live-games".*?</div>\s*(?:</section>|$)', html, re.S)
    assert match, "no live list"
    return {int(pk) for pk in re.findall(r'data-live-table="(\d+)"', match.group(0))}


def test_the_lobby_lists_public_games_being_played_and_never_private_ones(alice, bob, carol):
    public = start(alice, bob, "remi")
    private = start(bob, carol, "rummikub", is_public=False)
    waiting = lifecycle.create_table(carol, seat_count=2)  # not started: not live
    visitor, watcher, player = Client(), Client(), Client()
    watcher.force_login(carol)
    player.force_login(bob)  # plays at the private table: still not listed, it is not public
    for client in (visitor, watcher, player):
        html = client.get("/lobby/").content.decode()
        assert live_tables(html) == {public.table_id}
        assert f'href="/games/{public.pk}/"' in html
    assert private.table_id != public.table_id and waiting.pk != public.table_id


def test_the_live_list_follows_games_starting_and_ending_over_the_lobby_socket(alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)

    async def scenario() -> tuple[str, str, str]:
        visitor = await connect("/ws/lobby/")
        before = await visitor.receive_from(timeout=5)
        game = await database_sync_to_async(lifecycle.start_table)(table, alice)
        started = await visitor.receive_from(timeout=5)
        while not await visitor.receive_nothing(timeout=0.3):
            started = await visitor.receive_from()
        await database_sync_to_async(play_out)(game)
        ended = started
        while not await visitor.receive_nothing(timeout=0.5):
            ended = await visitor.receive_from()
        await visitor.disconnect()
        return before, started, ended

    before, started, ended = async_to_sync(scenario)()
    assert live_tables(before) == set()
    assert live_tables(started) == {table.pk}
    assert live_tables(ended) == set()  # a one-game series: over, off the list


def test_a_visitor_gets_each_move_of_a_public_game_as_a_spectator(alice, bob):
    game = start(alice, bob, "basic-rummy")
    engine = GAMES["basic-rummy"]

    async def scenario() -> str:
        ws = socket(game, None, "?version=0")
        connected, _ = await ws.connect()
        assert connected
        state = engine.load(game.state)
        seat = min(engine.to_act(state))
        await database_sync_to_async(services.play)(game.pk, seat, "draw", 0)
        html = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return html

    html = async_to_sync(scenario)()
    assert 'hx-swap-oob="true"' in html
    assert not re.findall(r'data-card="([^"]+)"', _section(html, "game-rack"))


def _section(html: str, element_id: str) -> str:
    match = re.search(rf'<section id="{element_id}".*?</section>', html, re.S)
    assert match, f"no {element_id}"
    return match.group(0)


def test_a_visitor_may_not_watch_a_private_game_over_its_socket(alice, bob):
    game = start(alice, bob, "remi", is_public=False)

    async def scenario() -> bool:
        ws = socket(game, None)
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert not async_to_sync(scenario)()


def test_a_visitor_may_watch_a_public_replay_and_sees_no_rack(alice, bob):
    game = play_out(start(alice, bob, "rummikub"))
    html = Client().get(f"/games/{game.pk}/replay/", {"step": 0}).content.decode()
    assert rack_tiles(html) == []
    assert "Your rack at this move" not in html
