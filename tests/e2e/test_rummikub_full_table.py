"""A whole tile rummy game at a full table, in a browser: a person opens a four-seat table
with three bots from the lobby form and plays it to the end against bots run by a real Celery
worker, once with a mouse on a desktop and once by touch on a 375 px phone.

The deal is replaced, before the worker starts, by a position written in notation so the test
knows every tile: Alice melds first (70 points), then makes a turn the rules refuse (a single
tile as a meld) and pays the penalty draw of three, then rearranges the table (splits a run,
moves a tile from it into a new set) and goes out.  The bots hold nothing that melds, so each
draws a tile when its turn comes.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from games.engine.rummikub import GAME
from games.engine.rummikub.scenario import position
from games.models import Game, Table
from tests.e2e.conftest import (
    PHONE,
    off_the_browser_loop,
    open_table_form,
    page_width,
    wait_for_socket,
)
from tests.e2e.game_page import expect_version_reached

pytestmark = pytest.mark.django_db(transaction=True)

BOT_TIMEOUT_MS = 30_000

ALICE = "R7 R8 R9 R10 R11 R12 R13 K10 B10 Y5"
BOTS = ["Y1 K3 B6 R2 K9", "B1 R4 Y9 K6 B12", "K1 Y3 R5 B8 Y11"]
# Drawn in this order: a tile for each bot, Alice's penalty of three, a tile for each bot.
DRAWS = ["B2", "K5", "Y4", "Y6", "Y7", "Y8", "R12", "Y13", "B5"]
# Rack totals the bots are left with (their racks and both draws): what Alice wins.
BOT_TOTALS = [35, 50, 37]


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_MOVE_DELAY_MS", "100")


def known_deal(game_id: int) -> None:
    """Replace the dealt position; Alice (seat 0) to play at version 0, so a bot task queued
    for the real deal finds no bot owing a move."""
    game = Game.objects.get(pk=game_id)
    names = GAME.load(game.state).seats
    stock = " ".join(["R1", "R3", *reversed(DRAWS)])  # the stock's end is drawn first
    state = position(names=names, racks=[ALICE, *BOTS], stock=stock)
    Game.objects.filter(pk=game_id).update(
        state=GAME.dump(state), to_act=[0], waiting_for_bot=False
    )


class Hand:
    """Taps on a phone, clicks elsewhere: the same moves either way."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page = page
        self.touch = touch

    def press(self, target: Locator) -> None:
        if self.touch:
            # As a person scrolls the table until what they tap is clear of the rack pinned
            # to the bottom of the screen: a tap aimed at a spot the rack may cover can land on
            # the rack when the page moves in between.
            target.evaluate("el => el.scrollIntoView({block: 'center', inline: 'nearest'})")
            target.element_handle().wait_for_element_state("stable")
            target.tap()
        else:
            target.click()

    def tile(self, where: str, code: str) -> Locator:
        return self.page.locator(f'{where} .draft-tile[data-tile="{code}"]').first

    def meld(self, number: int) -> Locator:
        return self.page.locator("#draft-melds .draft-meld").nth(number)

    def new_meld(self, codes: str) -> None:
        """Lay rack tiles as a new meld (the last one on the table)."""
        first, *rest = codes.split()
        self.press(self.tile("#game-rack", first))
        self.press(self.page.get_by_role("button", name="New meld"))
        self.settle()
        self.put(rest, self.page.locator("#draft-melds .draft-meld").last)

    def put(self, codes: list[str], meld: Locator) -> None:
        for code in codes:
            self.press(self.tile("#game-rack", code))
            self.press(meld.get_by_role("button", name="Put here"))
            expect(self.tile("#draft-melds", code)).to_be_visible()
            self.settle()

    def settle(self) -> None:
        """Wait for the draft's answer: it redraws the table, and a tap aimed at a tile just
        before a redraw lands on whatever the new layout put there."""
        expect(self.page.locator("#draft-form.htmx-request")).to_have_count(0)

    def done(self) -> None:
        self.press(self.page.locator("#done-button"))

    def wait_for_turn(self, version: int) -> None:
        """The three bots have moved: the turn is Alice's again at ``version``."""
        expect_version_reached(self.page, version)
        expect(self.page.locator("#game-status .your-turn")).to_be_visible(timeout=BOT_TIMEOUT_MS)


def draft_text(page: Page) -> list[str]:
    return page.locator("#draft-melds .draft-meld").evaluate_all(
        "melds => melds.map(m => Array.from(m.querySelectorAll('.draft-tile'))"
        ".map(t => t.dataset.tile).join(' '))"
    )


def open_table_from_the_lobby(hand: Hand) -> int:
    page = hand.page
    page.goto("/lobby/")
    open_table_form(page, hand.press)
    page.get_by_label("Game", exact=True).select_option("rummikub")
    expect(page.get_by_label("Rules", exact=True)).to_contain_text("Tile rummy (lenient jokers")
    page.get_by_label("Seats", exact=True).select_option("4")
    page.get_by_label("Seats to fill with bots").select_option("3")
    hand.press(page.locator("#create-table-submit"))
    expect(page.locator(".messages")).to_contain_text("Your table is ready.")
    table = Table.objects.filter(owner__username="alice").latest("created_at")
    assert (table.game_type, table.seat_count, table.seats.count()) == ("rummikub", 4, 4)
    hand.press(page.locator("#start-game"))
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return table.games.get().pk


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "phone"])
def test_a_person_plays_a_tile_rummy_game_to_the_end_against_three_bots(
    player, alice, request: pytest.FixtureRequest, touch: bool
):
    page = player(alice, **(PHONE if touch else {}))
    hand = Hand(page, touch)
    game_id = open_table_from_the_lobby(hand)
    off_the_browser_loop(known_deal, game_id)
    request.getfixturevalue("celery_worker")
    page.reload()
    wait_for_socket(page)
    expect(page.locator("#game-status .your-turn")).to_be_visible()
    if touch:
        assert page_width(page) <= 375, "sideways scroll"

    # First meld: a run of seven, 70 points.
    hand.new_meld("R7 R8 R9 R10 R11 R12 R13")
    expect(page.locator(".first-melds")).to_have_text("First melds: 70 of 30 points.")
    hand.done()
    expect(page.locator("#game-log")).to_contain_text("First melds worth 70.")
    hand.wait_for_turn(4)
    assert draft_text(page) == ["R7 R8 R9 R10 R11 R12 R13"]

    # A turn the rules refuse: Y5 alone is no meld.  Done takes it back and draws three.
    hand.new_meld("Y5")
    expect(page.locator(".draft-warning")).to_be_visible()
    hand.done()
    expect(page.locator("#game-log")).to_contain_text("Your turn is taken back")
    expect(page.locator("#game-log")).to_contain_text("You drew Y6 Y7 Y8.")
    hand.wait_for_turn(8)
    rack = page.locator("#game-rack .draft-tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    assert sorted(rack) == sorted(["K10", "B10", "Y5", "Y6", "Y7", "Y8"])

    # The rearrangement: split the run before R11, move R10 into a new set with K10 and B10,
    # and lay the rest of the rack: Alice goes out.
    hand.press(hand.tile("#draft-melds", "R11"))
    hand.press(hand.meld(0).get_by_role("button", name="Split"))
    hand.settle()
    expect(page.locator("#draft-melds .draft-meld")).to_have_count(2)
    assert draft_text(page) == ["R7 R8 R9 R10", "R11 R12 R13"]
    hand.press(hand.tile("#draft-melds", "R10"))
    hand.press(page.get_by_role("button", name="New meld"))
    hand.settle()
    hand.put(["K10", "B10"], hand.meld(2))
    hand.new_meld("Y5 Y6 Y7 Y8")
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(0)
    assert sorted(draft_text(page)) == sorted(
        ["R7 R8 R9", "R11 R12 R13", "R10 B10 K10", "Y5 Y6 Y7 Y8"]
    )
    hand.done()

    result = page.locator("#game-result")
    expect(result).to_be_visible()
    expect(result.locator("#result-heading")).to_have_text("Game over: Alice went out.")
    rows: list[Any] = result.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('th').textContent.trim(),"
        " r.querySelector('.points').textContent.trim()])"
    )
    assert rows[0] == ["Alice", str(sum(BOT_TOTALS))]
    assert [points for _name, points in rows[1:]] == [str(-t) for t in BOT_TOTALS]
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
