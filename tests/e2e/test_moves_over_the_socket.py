"""Moves travel over the game page's open socket (issue 28): a turn of every game is played
with no HTTP request at all, and a move whose socket is cut before its answer comes back is
applied exactly once, the page catching up when its socket reconnects."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from games.engine import GAMES
from games.models import Action, Game
from games.presenters import PRESENTERS
from games.tables import lifecycle
from tests.e2e.conftest import (
    assert_not_reloaded,
    mark_page,
    off_the_browser_loop,
    wait_for_game_socket,
)
from tests.e2e.game_page import expect_moves_sent, expect_version, play_notation
from tests.fuzz.test_fuzz_http import START_AT_ONCE

pytestmark = pytest.mark.django_db(transaction=True)

GAME_SOCKET = re.compile(r"/ws/games/\d+/")


def started(game_type: str, alice, bob) -> tuple[Game, int, str]:
    """A two-seat game between people, the seat to act and its move (the engine's own
    default, always legal) in notation."""
    table = lifecycle.create_table(
        alice, game_type=game_type, seat_count=2, options=START_AT_ONCE.get(game_type, {})
    )
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    (mover,) = game.to_act
    engine = GAMES[game_type]
    return game, mover, str(engine.timeout_action(engine.load(game.state), mover))


def opened(page: Page, game: Game) -> Page:
    page.goto(game.get_absolute_url())
    wait_for_game_socket(page)
    mark_page(page)
    return page


@pytest.mark.parametrize("game_type", sorted(PRESENTERS))
def test_a_turn_of_every_game_is_played_over_the_socket(game_type, player, alice, bob):
    game, mover, move = off_the_browser_loop(started, game_type, alice, bob)
    users = [alice, bob]
    mine, theirs = opened(player(users[mover]), game), opened(player(users[1 - mover]), game)
    requests: list[str] = []
    for page in (mine, theirs):
        page.on("request", lambda r: requests.append(r.url) if r.method == "POST" else None)

    play_notation(mine, move)
    (sent,) = expect_moves_sent(mine, 1)
    assert sent["verb"] == "notation" and sent["notation"] == move and sent["version"] == "0"
    for page in (mine, theirs):
        expect_version(page, 1)
        assert_not_reloaded(page)
    assert mine.evaluate("window.remiAnswerVersions") == [1]  # the answer, on the socket
    assert mine.evaluate("window.remiSocketVersions") == []  # and nothing more
    assert theirs.evaluate("window.remiSocketVersions") == [1]
    assert requests == []  # not one HTTP request for the move
    assert Action.objects.filter(game=game).count() == 1

    # The next move, from whichever seat owes it: its page was sent only the parts that
    # changed (its controls perhaps not at all), yet the move answers the version it shows.
    game.refresh_from_db()
    (second,) = game.to_act
    engine = GAMES[game_type]
    follow = str(engine.timeout_action(engine.load(game.state), second))
    page = mine if second == mover else theirs
    other = theirs if page is mine else mine
    other.locator('#game-log-list > li[data-version="1"]').evaluate("li => li.dataset.kept = 'yes'")
    play_notation(page, follow)
    sent = expect_moves_sent(page, 2 if page is mine else 1)[-1]
    assert sent["version"] == "1" and sent["notation"] == follow
    for each in (mine, theirs):
        expect_version(each, 2)
        # The log was sent its new entry alone, put first in the list.
        expect(each.locator("#game-log-list > li").first).to_have_attribute("data-version", "2")
    # On the page that did not move, the first entry is the one it had: not drawn again.
    kept = other.locator('#game-log-list > li[data-version="1"]')
    expect(kept).to_have_attribute("data-kept", "yes")
    assert requests == []
    assert Action.objects.filter(game=game).count() == 2


def test_a_move_whose_socket_is_cut_before_the_answer_is_applied_once(player, alice, bob):
    game, mover, move = off_the_browser_loop(started, "remi", alice, bob)
    page = player([alice, bob][mover])
    cuts: list[str] = []

    def cut_after_the_first_move(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        if cuts:
            return  # a reconnection: everything passes both ways

        def forward_then_cut(message: str | bytes) -> None:
            server.send(message)
            if not cuts:
                cuts.append(str(message))
                ws.close(code=1011)  # the page's side drops before any answer comes

        ws.on_message(forward_then_cut)
        server.on_message(ws.send)

    page.route_web_socket(GAME_SOCKET, cut_after_the_first_move)
    opened(page, game)
    play_notation(page, move)
    expect_moves_sent(page, 1)
    # The socket reconnects by itself and brings the position the move made.
    wait_for_game_socket(page, opened=2)
    expect_version(page, 1)
    expect(page.locator("#game-connection")).to_be_hidden()
    assert_not_reloaded(page)
    assert len(cuts) == 1 and move in cuts[0]
    assert Game.objects.get(pk=game.pk).version == 1
    assert Action.objects.filter(game=game).count() == 1  # applied exactly once
    assert page.evaluate("window.remiAnswerVersions") == []  # its answer was lost with the cut
