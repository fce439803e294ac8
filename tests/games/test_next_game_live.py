"""Issue 13, fault 2: the pages of a finished game hear when the series' next game is dealt.

Only players deal the next game, so a spectator's page said "Waiting for the players to deal
the next game" until it was reloaded.  Now the finished game's socket group is told, and each
socket (a spectator's too) is sent the result with the link to the new game."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games import services
from games.models import Game
from tests.games.test_game_act import near_the_end
from tests.games.test_game_consumer import session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spectator_of_a_finished_game_is_sent_the_link_to_the_next_one(alice, bob, carol):
    table = services.create_table(alice, seat_count=2, options={"doubla": False, "series_games": 2})
    services.join_table(table, bob)
    finished: Game = services.start_table(table, alice)
    near_the_end(finished, 0)
    services.play(finished.pk, 0, "discard R5", 0)
    carols, bobs = session_cookie(carol), session_cookie(bob)

    async def scenario() -> tuple[str, str, str]:
        watcher = socket(finished, carols, "?version=1")
        player = socket(finished, bobs, "?version=1")
        for ws in (watcher, player):
            connected, _ = await ws.connect()
            assert connected
            assert await ws.receive_nothing(timeout=0.3)  # both pages are up to date
        new = await database_sync_to_async(services.next_game)(table)
        seen = await watcher.receive_from(timeout=5)
        told = await player.receive_from(timeout=5)
        for ws in (watcher, player):
            await ws.disconnect()
        return new.get_absolute_url(), seen, told

    url, seen, told = async_to_sync(scenario)()
    for html in (seen, told):
        assert f'href="{url}"' in html
        assert "Go to the next game" in html
        assert "Waiting for the players to deal the next game" not in html
    assert 'id="game-rack"' in seen and "rack-tile" not in seen  # still a spectator's view
