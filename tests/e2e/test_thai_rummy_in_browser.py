"""Thai Rummy in a browser, on a desktop and on a 375 px touch screen: a person plays a hand
to its end against a bot run by a real Celery worker - a card taken from the spread discard
pile with two cards of the hand (each card a checkbox a screen reader names), a second meld,
a discard; the bot's turn arriving over the socket; then a draw, two lay-offs and going out
with the last card thrown face down, and the score.

The deal is replaced by a position written in notation so the test knows every card.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine.thai_rummy import GAME
from games.engine.thai_rummy.scenario import position
from games.models import Game
from games.tables import lifecycle
from tests.e2e.conftest import PHONE, off_the_browser_loop, page_width, wait_for_socket
from tests.e2e.game_page import expect_version_reached

pytestmark = pytest.mark.django_db(transaction=True)

BOT_TIMEOUT_MS = 30_000


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_MOVE_DELAY_MS", "100")


def game_with_a_bot(alice) -> Game:
    table = lifecycle.create_table(alice, game_type="thai-rummy", seat_count=2, bots=["normal"])
    game = lifecycle.start_table(table, alice)
    # Alice's hand; the bot's (nothing it can meld, nothing that fits the table); the stock
    # (drawn from its end: the bot gets the 10S, Alice the 8H); the pile, the bot's 7H on top.
    state = position(
        ["5H 6H 9S 9D 9C 2C KC 4H", "2D 4S 6C 8D JS QD KH"],
        stock="3S 8H 10S",
        discard="QC 7H",
    )
    state.seats = list(GAME.load(game.state).seats)
    # Alice to play at version 0: a bot task queued for the real deal finds no bot owing.
    Game.objects.filter(pk=game.pk).update(
        state=GAME.dump(state), to_act=[0], waiting_for_bot=False
    )
    return game


def tick(page: Page, selector: str, *, touch: bool) -> None:
    card = page.locator(selector)
    if touch:
        card.tap()
    else:
        card.click()
    expect(card.locator("input")).to_be_checked()


def pick(page: Page, code: str, *, touch: bool) -> None:
    tick(page, f'#game-rack .hand-card[data-card="{code}"]', touch=touch)


def press(page: Page, name: str, *, touch: bool) -> None:
    button = page.get_by_role("button", name=name)
    if touch:
        button.tap()
    else:
        button.click()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_person_plays_a_hand_to_the_end_against_a_bot(device, player, alice, celery_worker):
    touch = device == "phone"
    game = off_the_browser_loop(game_with_a_bot, alice)
    page = player(alice, **PHONE) if touch else player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page)
    expect(page.locator("#game-status .your-turn")).to_contain_text("take from the pile")
    # The hand's cards and the pile's are named for screen readers.
    expect(page.get_by_role("checkbox", name="five of hearts")).to_have_count(1)
    expect(page.get_by_role("checkbox", name=re.compile("^seven of hearts, from "))).to_have_count(
        1
    )
    if touch:
        width = page_width(page)
        assert width <= 375, f"the page is {width} px wide on a 375 px screen"

    # A pickup needs cards of the hand: said beside the controls.
    tick(page, '#game-piles .pile-card[data-card="7H"]', touch=touch)
    press(page, "Take from the pile and meld", touch=touch)
    expect(page.locator("#game-error")).to_contain_text("Pick the cards of your hand")
    for code in ("5H", "6H"):
        pick(page, code, touch=touch)
    press(page, "Take from the pile and meld", touch=touch)
    expect(page.locator("#game-table .meld")).to_have_count(1)
    expect(page.locator("#game-table .meld").first).to_have_attribute(
        "aria-label", "Meld 1, run: five of hearts, six of hearts, seven of hearts"
    )
    for code in ("9S", "9D", "9C"):
        pick(page, code, touch=touch)
    press(page, "Meld the picked cards", touch=touch)
    expect(page.locator("#game-table .meld")).to_have_count(2)
    press(page, "Discard the picked card", touch=touch)
    expect(page.locator("#game-error")).to_contain_text("Pick exactly one card")
    pick(page, "KC", touch=touch)
    press(page, "Discard the picked card", touch=touch)

    # The bot draws and discards; the turn comes back over the socket.
    expect_version_reached(page, 5)
    expect(page.locator("#draw-button")).to_be_visible(timeout=BOT_TIMEOUT_MS)
    press(page, "Draw from the stock", touch=touch)
    expect(page.locator("#game-log")).to_contain_text("You drew the eight of hearts")
    for code in ("8H", "4H"):
        pick(page, code, touch=touch)
    page.locator("#onto-select").select_option("1")
    press(page, "Lay off on meld", touch=touch)
    expect(page.locator("#game-table .meld").first.locator(".card")).to_have_count(5)
    expect(page.locator("#game-controls")).to_contain_text("face down to go out")
    pick(page, "2C", touch=touch)
    press(page, "Discard the picked card", touch=touch)

    # Out: 5H 6H 7H 9S 9D 9C 8H 4H = 40 displayed, +50 for going out (melds shown before
    # this turn, so not doubled): 90.
    result = page.locator("#game-result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("went out and scores 90 points")
    state = GAME.load(Game.objects.get(pk=game.pk).state)
    assert state.result.winner == 0 and state.result.scores[0] == 90
