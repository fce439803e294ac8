"""Issue 30, fault 9: a tile tapped in Remi's discard row when Pick cannot be played is no
longer selected in silence: the page says why (before the first melds, out of turn), and the
hint goes once the tile is let go; where Pick can be played there is no hint at all."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.models import Game
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import button, expect_version

pytestmark = pytest.mark.django_db(transaction=True)


def _alices_turn(alice, bob, melded: list[int]) -> Game:
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = scenario.position(
        racks=["R1 R2 K5 K6 B9 Y11 Y12", "K1 K2 K3 B4 B5"],
        rules=REMI.with_options(doubla=False),
        wall="B7 B8 B10 K12 Y4",
        discards="Y2 K9 B13",
        discarded_by=[1, 0, 1],
        melded=melded,
        turn=0,
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return Game.objects.get(pk=game.pk)


def open_game(page: Page, game: Game) -> None:
    page.goto(game.get_absolute_url())
    wait_for_socket(page)
    expect_version(page, game.version)


def row_tile(page: Page, code: str):
    return page.locator(f"#game-row .row-tile[data-tile='{code}']")


def test_a_row_tile_tapped_before_the_first_melds_says_why_there_is_no_pick(player, alice, bob):
    game = off_the_browser_loop(_alices_turn, alice, bob, [])
    page = player(alice)
    open_game(page, game)
    hint = page.locator("#row-hint")
    expect(hint).to_be_hidden()
    expect(button(page, "Pick")).to_be_disabled()

    row_tile(page, "B13").click()
    expect(row_tile(page, "B13")).to_have_attribute("aria-pressed", "true")
    expect(hint).to_be_visible()
    expect(hint).to_have_text("You can take from the discard row only after your first meld.")

    row_tile(page, "B13").click()  # let go: the hint goes with it
    expect(row_tile(page, "B13")).to_have_attribute("aria-pressed", "false")
    expect(hint).to_be_hidden()


def test_out_of_turn_the_hint_says_when_tiles_are_picked(player, alice, bob):
    game = off_the_browser_loop(_alices_turn, alice, bob, [0, 1])
    page = player(bob)
    open_game(page, game)
    row_tile(page, "K9").click()
    expect(page.locator("#row-hint")).to_have_text(
        "A tile is picked from the discard row at the start of your turn, instead of drawing."
    )
    expect(page.locator("#row-hint")).to_be_visible()


def test_where_pick_can_be_played_there_is_no_hint(player, alice, bob):
    game = off_the_browser_loop(_alices_turn, alice, bob, [0])
    page = player(alice)
    open_game(page, game)
    expect(button(page, "Pick")).to_be_enabled()
    row_tile(page, "B13").click()
    expect(row_tile(page, "B13")).to_have_attribute("aria-pressed", "true")
    assert page.locator("#row-hint").count() == 0
