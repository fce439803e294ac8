"""Issue 15: a move made through the act view is rendered for its process's sockets without
reading the game back.

The act view has the position in hand once the move is committed (game, seats, state), so it
keeps it for the shared renders before anyone is told of the move.  The sockets of that process
then render from it: no snapshot read.  What they send must be exactly what a fresh read would
render, for every game of the registry, for the other seat and for a spectator."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client

from games import live_views, services
from games.engine import GAMES, get_game
from games.models import Game
from tests.games.test_game_consumer import session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def started_game(game_type: str, alice, bob) -> Game:
    table = services.create_table(alice, game_type=game_type, seat_count=2)
    services.join_table(table, bob)
    return services.start_table(table, alice)


def move_posted(game: Game, users: list, seed: int) -> tuple[int, int]:
    """The first seat to act posts a move of the engine's choosing; (its seat, the new
    version)."""
    game.refresh_from_db()
    engine = get_game(game.table.game_type)
    seat = min(game.to_act)
    action = engine.random_action(engine.load(game.state), seat, random.Random(seed))
    client = Client()
    client.force_login(users[seat])
    fields = {"version": game.version, "verb": "notation", "notation": str(action)}
    response = client.post(f"/games/{game.pk}/act/", fields, **HTMX)
    assert response.status_code == 200, response.content.decode()[:500]
    return seat, game.version + 1


@pytest.mark.parametrize("game_type", list(GAMES))
def test_the_sockets_of_the_movers_process_render_the_move_without_reading_it(
    game_type, alice, bob
):
    game = started_game(game_type, alice, bob)
    users = [alice, bob]
    other_seat = 1 - min(Game.objects.get(pk=game.pk).to_act)
    cookie = session_cookie(users[other_seat])
    live_views.SHARED.clear()

    async def scenario() -> tuple[list[str], int, int, int]:
        sockets = [socket(game, cookie, "?version=0"), socket(game, None, "?version=0")]
        for ws in sockets:
            connected, _ = await ws.connect()
            assert connected
            assert await ws.receive_nothing(timeout=0.3)  # every page is up to date
        reads, renders = live_views.SHARED.reads, live_views.SHARED.renders
        _, version = await database_sync_to_async(move_posted)(game, users, seed=7)
        sent = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return sent, version, live_views.SHARED.reads - reads, live_views.SHARED.renders - renders

    (to_other, to_spectator), version, reads, renders = async_to_sync(scenario)()
    assert (reads, renders) == (0, 2)  # one render for the seat, one for the spectators
    fresh = live_views.read_snapshot(game.pk)
    assert fresh is not None and fresh.game.version == version
    assert to_other == live_views.render_updates(fresh, other_seat)
    assert to_spectator == live_views.render_updates(fresh, None)
