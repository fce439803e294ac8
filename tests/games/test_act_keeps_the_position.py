"""Issue 15: a move made through the act view is rendered for its process's sockets without
reading the game back.

The act view has the position in hand once the move is committed (game, seats, state), so it
keeps it for the shared renders before anyone is told of the move.  The sockets of that process
then render from it: no snapshot read.  What they send must be exactly what a fresh read would
render, for every game of the registry, for the other seat and for a spectator."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import presenters
from games.engine import GAMES, get_game
from games.models import Action, Game
from games.play import live_views, services
from games.tables import lifecycle
from tests.games.test_game_consumer import session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}


def started_game(game_type: str, alice, bob) -> Game:
    table = lifecycle.create_table(alice, game_type=game_type, seat_count=2)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


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


def advanced(game: Game, moves: int, seed: int) -> None:
    """``moves`` random moves through the service, or fewer if the game ends."""
    rng = random.Random(seed)
    engine = get_game(game.table.game_type)
    for _ in range(moves):
        game.refresh_from_db()
        if not game.to_act:
            return
        seat = min(game.to_act)
        action = engine.random_action(engine.load(game.state), seat, rng)
        services.play(game.pk, seat, action, game.version)


def log_of(snapshot: live_views.Snapshot) -> list[tuple]:
    return [(a.version, a.seat, a.events, a.cause) for a in snapshot.actions]


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_move_after_one_its_process_kept_adds_its_row_to_the_kept_log(
    game_type, alice, bob, one_deal
):
    # Past the log's window, so that keeping it also means dropping its oldest row.
    game = started_game(game_type, alice, bob)
    users = [alice, bob]
    advanced(game, presenters.LOG_ACTIONS + 1, seed=3)
    live_views.SHARED.clear()
    game.refresh_from_db()
    assert game.to_act, "the game ended before the log's window filled: another seed"
    move_posted(game, users, seed=1)  # the first move of this process reads the log
    for n in range(2, 6):
        game.refresh_from_db()
        if not game.to_act:
            break
        with CaptureQueriesContext(connection) as queries:
            _, version = move_posted(game, users, seed=n)
        log_reads = [
            q["sql"] for q in queries.captured_queries if 'FROM "games_action"' in q["sql"]
        ]
        assert log_reads == []
        kept = live_views.SHARED.kept(game.pk, version)
        fresh = live_views.read_snapshot(game.pk)
        assert kept is not None and fresh is not None
        assert len(kept.actions) == presenters.LOG_ACTIONS
        assert log_of(kept) == log_of(fresh)
        # A kept row holds no game of its own: 40 versions' states would stay in memory.
        assert not any(Action.game.field.is_cached(action) for action in kept.actions)
        for seat in (0, 1, None):
            assert live_views.render_updates(kept, seat) == live_views.render_updates(fresh, seat)


def test_a_kept_log_already_holding_the_move_is_not_added_to(alice, bob, one_deal):
    # A socket read the game at version 1, then the log after the move to 2 was committed:
    # that snapshot, kept as version 1, already ends with the move's row.
    game = started_game("remi", alice, bob)
    advanced(game, 2, seed=5)
    game.refresh_from_db()
    assert game.version == 2
    read_across = live_views.read_snapshot(game.pk)
    assert read_across is not None
    live_views.SHARED.clear()
    at_one = Game.objects.select_related("table").get(pk=game.pk)
    at_one.version = 1
    live_views.SHARED.prime(replace(read_across, game=at_one))
    move = services.Played(game, [], read_across.seats, read_across.state, read_across.actions[-1])
    after = live_views.snapshot_after(move)
    assert [a.version for a in after.actions] == [1, 2]
