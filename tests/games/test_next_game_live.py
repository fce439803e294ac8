"""Issue 13, fault 2: the pages of a finished game hear when the series' next game is dealt.

Only players deal the next game, so a spectator's page said "Waiting for the players to deal
the next game" until it was reloaded.  Now the finished game's socket group is told, and each
socket (a spectator's too) is sent the result with the link to the new game."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.models import Game
from games.play import live_views, services
from games.tables import lifecycle
from tests.games.test_game_act import near_the_end
from tests.games.test_game_consumer import session_cookie, socket

pytestmark = pytest.mark.django_db(transaction=True)


def finished_game(alice, bob, series_games: int) -> Game:
    table = lifecycle.create_table(
        alice, seat_count=2, options={"doubla": False, "series_games": series_games}
    )
    lifecycle.join_table(table, bob)
    finished: Game = lifecycle.start_table(table, alice)
    near_the_end(finished, 0)
    services.play(finished.pk, 0, "discard R5", 0)
    return finished


def pages_told(
    finished: Game, cookies: list, news: Callable[[], str]
) -> tuple[str, list, int, int]:
    """Open a page per cookie (None: an anonymous visitor) on the finished game, make the news
    and return its link, what each page was sent, and the shared reads and renders it cost."""

    async def scenario() -> tuple[str, list[str], int, int]:
        sockets = [socket(finished, cookie, "?version=1") for cookie in cookies]
        for ws in sockets:
            connected, _ = await ws.connect()
            assert connected
            assert await ws.receive_nothing(timeout=0.3)  # every page is up to date
        reads, renders = live_views.SHARED.reads, live_views.SHARED.renders
        url = await database_sync_to_async(news)()
        sent = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            assert await ws.receive_nothing(timeout=0.2)  # once each
            await ws.disconnect()
        return url, sent, live_views.SHARED.reads - reads, live_views.SHARED.renders - renders

    return async_to_sync(scenario)()


def test_a_spectator_of_a_finished_game_is_sent_the_link_to_the_next_one(alice, bob, carol):
    finished = finished_game(alice, bob, series_games=2)
    cookies = [session_cookie(carol), None, session_cookie(bob)]

    def deal() -> str:
        return lifecycle.next_game(finished.table).get_absolute_url()

    url, (seen, seen_too, told), reads, renders = pages_told(finished, cookies, deal)
    for html in (seen, seen_too, told):
        assert f'href="{url}"' in html
        assert "Go to the next game" in html
        assert "Waiting for the players to deal the next game" not in html
    assert 'id="game-rack"' in seen and "rack-tile" not in seen  # still a spectator's view
    # The players' chips are alike for every viewer: the page marks its own seat ("you").
    for html in (seen, told):
        assert 'bob<span class="you-mark" hidden> (you)</span>' in html
        assert "is-you" not in html
    # Issue 15: the news is read once and rendered once for the spectators, once for bob.
    assert seen_too == seen
    assert (reads, renders) == (1, 2)


def test_the_pages_of_a_finished_series_are_sent_the_rematch_table(alice, bob, carol):
    finished = finished_game(alice, bob, series_games=1)
    cookies = [session_cookie(carol), session_cookie(bob), None]

    def play_again() -> str:
        return lifecycle.rematch(finished.table, alice).get_absolute_url()

    url, (seen, told, seen_too), reads, renders = pages_told(finished, cookies, play_again)
    for html in (seen, told):
        assert f'href="{url}"' in html
        assert "Go to the table to play again" in html
    assert seen_too == seen
    assert (reads, renders) == (1, 2)
