"""Knowing it is your turn from another tab: the title and the tab's icon change when the
turn comes (over the socket, from a bot run by a real Celery worker), and a sound plays for a
player who turned it on in their profile, only for a turn that arrives while the page is open.

The sound is counted by wrapping the browser's AudioContext in the page (the outer edge: a
headless browser has no speaker to listen to)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.test_basic_rummy_in_browser import game_with_a_bot

pytestmark = pytest.mark.django_db(transaction=True)

COUNT_BEEPS = """
window.remiBeeps = 0;
const original = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.remiBeeps += 1;
  return original.call(this);
};
"""


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    # Long enough that the bot's turn stays on the page while the test looks for it: at 100 ms
    # a quick worker played both its actions between two of the browser's polls (a CI flake).
    monkeypatch.setenv("BOT_MOVE_DELAY_MS", "1500")


def icon(page: Page) -> str:
    return page.locator('link[rel="icon"]').get_attribute("href") or ""


def play_a_turn(page: Page) -> None:
    """Alice draws and throws her king of clubs (the position of game_with_a_bot)."""
    page.get_by_role("button", name="Draw from the stock").click()
    expect(page.locator("#game-log")).to_contain_text("You drew")
    page.locator('#game-rack .hand-card[data-card="KC"]').click()
    page.get_by_role("button", name="Discard the picked card").click()


@pytest.mark.parametrize("sound", [True, False], ids=["sound-on", "sound-off"])
def test_the_title_and_icon_say_your_turn_and_the_sound_follows_the_profile(
    sound, player, alice, celery_worker
):
    alice.turn_sound = sound
    alice.save(update_fields=["turn_sound"])
    game = off_the_browser_loop(game_with_a_bot, alice)
    page = player(alice)
    page.add_init_script(COUNT_BEEPS)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)

    # Drawn on the player's turn: said at once, but no sound for what the page opened with.
    expect(page).to_have_title(re.compile(r"^\(1\) Your turn · "))
    assert icon(page).endswith("favicon-turn.svg")
    assert page.evaluate("window.remiBeeps") == 0

    play_a_turn(page)
    # The bot's turn: the title is the page's own again (until the bot has played).
    expect(page.locator("#game-status .your-turn")).to_have_count(0)
    # The bot draws and discards; the turn comes back over the socket.
    expect(page).to_have_title(re.compile(r"^\(1\) Your turn · "), timeout=30_000)
    assert icon(page).endswith("favicon-turn.svg")
    beeps = page.evaluate("window.remiBeeps")
    assert beeps == (1 if sound else 0)


def two_player_game(alice, bob):
    # Without the doubla prelude, in which both seats act at once.
    table = lifecycle.create_table(alice, game_type="remi", seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def test_any_page_counts_the_games_waiting_for_the_player(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    (mover,) = game.to_act
    users = [alice, bob]
    waiting, other = player(users[mover]), player(users[1 - mover])
    for page in (waiting, other):
        page.goto("/lobby/")
        wait_for_socket(page, 1)
    expect(waiting).to_have_title("(1) Lobby · Remi")
    assert icon(waiting).endswith("favicon-turn.svg")
    expect(other).to_have_title("Lobby · Remi")
    assert icon(other).endswith("/favicon.svg")
