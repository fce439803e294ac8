"""Issue 30, fault 6: after a move made from the keyboard the focus stays in the game.  The
part redrawn around it (the meld picked for Add, the bar whose button was pressed) took it to
the top of the page, dozens of Tab stops from the rack."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.e2e.test_phone_turn import KEYBOARD_740, known_turn

pytestmark = pytest.mark.django_db(transaction=True)


def in_the_game(page: Page) -> bool:
    return page.evaluate(
        "() => document.activeElement !== document.body"
        " && document.activeElement.closest('#game') !== null"
    )


def test_remi_add_from_the_keyboard_keeps_the_focus_in_the_game(player, alice, bob):
    table = off_the_browser_loop(
        lifecycle.create_table, alice, seat_count=2, options={"doubla": False}
    )
    off_the_browser_loop(lifecycle.join_table, table, bob)
    game = off_the_browser_loop(lifecycle.start_table, table, alice)
    off_the_browser_loop(known_turn, game.pk)  # Alice's meld Y5 Y6 Y7 Y8 is on the table
    page = player(alice, **KEYBOARD_740)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    page.locator("#game-controls").get_by_role("button", name="Draw").click()
    expect_version(page, 1)

    page.locator('#game-rack .rack-tile[data-tile="Y9"]').click()
    meld = page.locator("#game-melds .meld").first
    meld.focus()
    page.keyboard.press("Enter")  # picks the meld for Add
    expect(meld).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("a")
    expect_version(page, 2)
    expect(page.locator("#game-melds .meld").first).to_contain_text("9")
    page.wait_for_function("() => document.activeElement !== document.body")
    assert in_the_game(page)


def test_basic_rummy_draw_and_discard_with_enter_keep_the_focus_in_the_game(player, alice, bob):
    table = off_the_browser_loop(
        lifecycle.create_table, alice, game_type="basic-rummy", seat_count=2
    )
    off_the_browser_loop(lifecycle.join_table, table, bob)
    game = off_the_browser_loop(lifecycle.start_table, table, alice)
    first = alice if game.to_act == [0] else bob
    page = player(first, **KEYBOARD_740)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)

    page.locator("#draw-button").focus()
    page.keyboard.press("Enter")
    expect_version(page, 1)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert in_the_game(page)

    page.locator("#game-rack input").first.check()
    page.locator("#discard-button").focus()
    page.keyboard.press("Enter")
    expect_version(page, 2)
    page.wait_for_function("() => document.activeElement !== document.body")
    assert in_the_game(page)
