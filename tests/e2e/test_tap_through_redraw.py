"""A tap is not lost when the server redraws the hand between the press and the release.

Chromium sends no click when the pressed element leaves the page before the button comes up:
a player who pressed a tile just as a draft's answer (or a socket push) redrew the rack saw
nothing happen.  CI caught it as a flaky tournament test (a tile tapped while the answer to
the previous tile's move came in was never picked).  For every game, with a real mouse:
press a piece, let the server redraw the hand, release; the piece is picked, once.  A button
that sends a move is not finished that way (the redraw may have changed what it would do)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from games.models import Game, Seat
from games.tables import lifecycle
from tests.e2e.conftest import (
    assert_not_reloaded,
    mark_page,
    off_the_browser_loop,
    wait_for_socket,
)
from tests.e2e.game_page import expect_moves_sent, moves_sent

pytestmark = pytest.mark.django_db(transaction=True)

# Where each game's page draws the pieces of the player's hand.
PIECES = {
    "remi": "#game-rack button[data-tile]",
    "rummikub": "#game-rack button[data-tile]",
    "basic-rummy": "#game-rack .hand-card",
    "thai-rummy": "#game-rack .hand-card",
}

REDRAW = """region => htmx.ajax("GET", location.pathname,
    {target: region, select: region, swap: "outerHTML"})"""


def started(game_type: str, alice, bob) -> tuple[int, int]:
    """A two-seat game between people; the number of the player who is to act."""
    table = lifecycle.create_table(alice, game_type=game_type, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    game = Game.objects.get(pk=game.pk)
    to_act = Seat.objects.get(table=table, position=game.to_act[0])
    return game.pk, to_act.user_id


def expect_picked(page: Page, game_type: str) -> None:
    piece = page.locator(PIECES[game_type]).first
    if game_type.endswith("rummy"):
        expect(piece.locator("input")).to_be_checked()
    else:
        expect(piece).to_have_attribute("aria-pressed", "true")


def open_the_game(game_type: str, player, alice, bob) -> Page:
    game_id, user_id = off_the_browser_loop(started, game_type, alice, bob)
    page = player(alice if user_id == alice.pk else bob)
    page.goto(f"/games/{game_id}/")
    wait_for_socket(page)
    page.wait_for_load_state("load")
    return page


def press_redraw_release(page: Page, control: Locator, region: str) -> None:
    pressed = control.element_handle()
    box = control.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate(REDRAW, region)
    # The control under the pointer is a new element now: the browser itself drops the tap.
    assert pressed.evaluate("el => el.isConnected") is False
    page.mouse.up()


@pytest.mark.parametrize("game_type", list(PIECES))
def test_a_tap_the_server_redraws_under_the_pointer_still_picks(game_type, player, alice, bob):
    page = open_the_game(game_type, player, alice, bob)
    press_redraw_release(page, page.locator(PIECES[game_type]).first, "#game-rack")

    expect_picked(page, game_type)
    # Picked once: a second click (the browser's own) would have let it go again.
    page.wait_for_timeout(300)
    expect_picked(page, game_type)


@pytest.mark.parametrize("game_type", list(PIECES))
def test_a_move_button_the_server_redraws_mid_press_sends_nothing(game_type, player, alice, bob):
    page = open_the_game(game_type, player, alice, bob)
    address = page.url
    mark_page(page)
    posts: list[str] = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    move = page.locator('#game-controls button[type="submit"]:not([disabled])').first
    press_redraw_release(page, move, "#game-controls")
    page.wait_for_timeout(300)
    # Neither sent over the socket, nor posted, nor submitted as a plain form (which would
    # load another page).
    assert moves_sent(page) == []
    assert posts == []
    assert page.url == address
    assert_not_reloaded(page)
    # Pressed again, the same button does send: the silence above was the redraw's.  Its
    # answer is awaited too: a daphne stopped while a move is still being announced waits for
    # that announcement until it is killed (20 s of the test's teardown).
    heard = page.evaluate("window.remiGameMessages")
    move.click()
    assert len(expect_moves_sent(page, 1)) == 1
    page.wait_for_function("heard => window.remiGameMessages > heard", arg=heard)
    assert posts == []
