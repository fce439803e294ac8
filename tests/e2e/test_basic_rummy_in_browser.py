"""Basic Rummy in a browser, on a desktop and on a 375 px touch screen: a person plays a hand
to its end against a bot run by a real Celery worker — a draw, a meld picked card by card in
the hand (each card a checkbox a screen reader names), a discard; the bot's turn arriving
over the socket; then a meld, a lay-off and going out with the last discard, and the score.

The deal is replaced by a position written in notation so the test knows every card.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine.basic_rummy import GAME
from games.engine.basic_rummy.scenario import position
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
    table = lifecycle.create_table(alice, game_type="basic-rummy", seat_count=2, bots=["normal"])
    game = lifecycle.start_table(table, alice)
    state = position(
        ["5H 6H 7H 9S 9D 9C 2C KC", "2D 4S 6C 8D JS QD KH"],
        stock="4C 10D 9H 3S 8H",
        discard="QC",
        turns_taken=0,
    )
    state.seats = list(GAME.load(game.state).seats)
    # Alice to play at version 0: a bot task queued for the real deal finds no bot owing.
    Game.objects.filter(pk=game.pk).update(
        state=GAME.dump(state), to_act=[0], waiting_for_bot=False
    )
    return game


def pick(page: Page, code: str, *, touch: bool) -> None:
    card = page.locator(f'#game-rack .hand-card[data-card="{code}"]')
    if touch:
        card.tap()
    else:
        card.click()
    expect(card.locator("input")).to_be_checked()


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
    expect(page.locator("#game-status .your-turn")).to_contain_text("draw a card")
    # Each card is named for screen readers.
    expect(page.get_by_role("checkbox", name="five of hearts")).to_have_count(1)
    if touch:
        width = page_width(page)
        assert width <= 375, f"the page is {width} px wide on a 375 px screen"

    press(page, "Draw from the stock", touch=touch)
    expect(page.locator("#game-log")).to_contain_text("You drew the eight of hearts")
    for code in ("5H", "6H", "7H", "8H"):
        pick(page, code, touch=touch)
    press(page, "Meld the picked cards", touch=touch)
    expect(page.locator("#game-table .meld")).to_have_count(1)
    expect(page.locator("#game-table .meld").first).to_have_attribute(
        "aria-label",
        "Meld 1, run: five of hearts, six of hearts, seven of hearts, eight of hearts",
    )
    # A refused move is said beside the controls.
    press(page, "Discard the picked card", touch=touch)
    expect(page.locator("#game-error")).to_contain_text("Pick exactly one card")
    pick(page, "KC", touch=touch)
    press(page, "Discard the picked card", touch=touch)

    # The bot draws and discards; the turn comes back over the socket.
    expect_version_reached(page, 5)
    expect(page.locator("#game-status .your-turn")).to_contain_text(
        "draw a card", timeout=BOT_TIMEOUT_MS
    )
    press(page, "Draw from the stock", touch=touch)
    for code in ("9S", "9D", "9C"):
        pick(page, code, touch=touch)
    press(page, "Meld the picked cards", touch=touch)
    expect(page.locator("#game-error")).to_have_text("")
    expect(page.locator("#game-table .meld")).to_have_count(2)
    pick(page, "9H", touch=touch)
    page.locator("#onto-select").select_option("1")
    press(page, "Lay off on meld", touch=touch)
    expect(page.locator("#game-table .meld").first.locator(".card")).to_have_count(5)
    pick(page, "2C", touch=touch)
    press(page, "Discard the picked card", touch=touch)

    # Out: the bot's eight cards are Alice's points (43 whatever it kept, see below).
    result = page.locator("#game-result")
    expect(result).to_be_visible()
    state = GAME.load(Game.objects.get(pk=game.pk).state)
    points = state.result.scores[0]
    assert state.result.winner == 0 and points == state.result.hand_values[1] > 0
    expect(result).to_contain_text(f"wins the hand and scores {points} points")


def deep_pickup_game(alice) -> Game:
    table = lifecycle.create_table(
        alice, game_type="basic-rummy", preset="rummy-500-pickup", seat_count=2, bots=["normal"]
    )
    game = lifecycle.start_table(table, alice)
    rules = GAME.load(game.state).rules
    state = position(["6H 7H 2S 9D", "3C 4C 8S"], rules=rules, stock="JD QD", discard="5H 9C KD")
    state.seats = list(GAME.load(game.state).seats)
    Game.objects.filter(pk=game.pk).update(
        state=GAME.dump(state), to_act=[0], waiting_for_bot=False
    )
    return game


def test_the_rummy_500_pickup_on_a_phone(player, alice):
    """The spread pile's cards are picked by touch like the hand's: the deepest one picked
    comes with every card above it and is melded at once."""
    game = off_the_browser_loop(deep_pickup_game, alice)
    page = player(alice, **PHONE)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page)
    pile_card = page.locator('#game-piles .pile-card[data-card="5H"]')
    pile_card.tap()
    expect(pile_card.locator("input")).to_be_checked()
    # The cards above it are marked as coming along, before anything is sent.
    for code in ("9C", "KD"):
        expect(page.locator(f'#game-piles .pile-card[data-card="{code}"]')).to_have_class(
            re.compile(r"\bcomes-along\b")
        )
    expect(pile_card).not_to_have_class(re.compile(r"\bcomes-along\b"))
    # Picking in the pile alone is refused with what is missing, and nothing moves.
    press(page, "Take from the pile and meld", touch=True)
    expect(page.locator("#game-error")).to_contain_text("cards of your hand")
    for code in ("6H", "7H"):
        pick(page, code, touch=True)
    press(page, "Take from the pile and meld", touch=True)
    expect(page.locator("#game-table .meld")).to_have_count(1)
    expect(page.locator("#game-table .meld").first).to_have_attribute(
        "aria-label", "Meld 1, run: five of hearts, six of hearts, seven of hearts"
    )
    expect(page.locator("#game-rack .hand-card")).to_have_count(4)  # 2S 9D, 9C and KD
    expect(page.locator("#game-status .your-turn")).to_contain_text("then discard")
    width = page_width(page)
    assert width <= 375, f"the page is {width} px wide on a 375 px screen"
