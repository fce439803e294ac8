"""A whole Remi turn on a 375 by 740 phone without scrolling: draw, compose a meld by dragging
tiles with a finger (tests/e2e/touch.py), lay it, discard; and the same turn by keyboard
alone, with focus kept where the player was after each action.  Screenshots of both go to the
test artefacts (``var/test-artifacts/`` unless ``TEST_ARTIFACTS_DIR`` says otherwise)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW
from games.models import Game
from games.play import services
from tests.e2e.conftest import off_the_browser_loop, page_width, wait_for_socket
from tests.e2e.game_page import expect_version, rack
from tests.e2e.touch import touch_drag
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

PHONE_740 = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}
KEYBOARD_740 = {"viewport": {"width": 375, "height": 740}}

# Alice has melded before; the wall's next tile is B6.
ALICE_RACK = "R1 R2 R3 Y9 Y11 B4 B8 K2 K6 K11 Y1 B13 R12 K13"
BOB_RACK = "R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 B1 B3 B5 K3 K4"
WALL = "B6 Y12 K9"  # drawn from the start


def known_turn(game_id: int, *, melded: bool = True) -> None:
    """Alice (seat 0) to draw at version 0, with a meld of hers already on the table (or
    with her first melds still to make)."""
    game = Game.objects.select_related("table").get(pk=game_id)
    engine = services.game_of(game.table)
    dealt = engine.load(game.state)
    state = position(
        racks=[ALICE_RACK, BOB_RACK],
        rules=dealt.rules,
        wall=WALL,
        melds=[("Y5 Y6 Y7 Y8", 0)] if melded else [],
        melded=[0] if melded else [],
        phase=DRAW,
        turn=0,
        names=dealt.seats,
    )
    Game.objects.filter(pk=game_id).update(state=engine.dump(state), to_act=[0], phase=DRAW)


def artefacts(name: str) -> Path:
    folder = Path(os.environ.get("TEST_ARTIFACTS_DIR", "var/test-artifacts")) / "phone-turn"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def assert_one_screen(page: Page) -> None:
    """Nothing scrolled, sideways or down: the turn is played on the first screen."""
    width = page_width(page)
    scrolled = page.evaluate("() => [window.scrollX, window.scrollY]")
    assert scrolled == [0, 0], f"the page scrolled to {scrolled}"
    assert width <= 375, f"the page is {width} px wide"


def on_screen(target: Locator) -> Locator:
    expect(target).to_be_in_viewport(ratio=1)
    return target


def rack_tile(page: Page, code: str) -> Locator:
    return page.locator(f'#game-rack .rack-tile[data-tile="{code}"]').first


def control(page: Page, name: str) -> Locator:
    return page.locator("#game-controls").get_by_role("button", name=name, exact=True)


def test_a_whole_turn_by_touch_on_one_phone_screen(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    off_the_browser_loop(known_turn, game.pk)
    page = player(alice, **PHONE_740)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    page.wait_for_function("() => window.Sortable !== undefined")
    expect(page.locator("#game-status .your-turn")).to_be_visible()
    # On a touch screen: big tiles, no keyboard help, the menu folded away.
    box = rack_tile(page, "R1").bounding_box()
    assert box is not None and box["width"] >= 40 and box["height"] >= 56, box
    expect(page.locator(".help-keys")).to_be_hidden()
    expect(page.get_by_role("link", name="Lobby")).to_be_hidden()
    assert_one_screen(page)
    page.screenshot(path=artefacts("touch-1-your-turn"))

    # Draw: B6 joins the rack.
    on_screen(control(page, "Draw")).tap()
    expect_version(page, 1)
    assert "B6" in rack(page)
    assert_one_screen(page)

    # Compose R1 R2 R3 by dragging each onto the selection line, then lay it.
    compose = on_screen(page.locator("#game-compose"))
    composed: list[str] = []
    for code in ("R1", "R2", "R3"):
        touch_drag(page, on_screen(rack_tile(page, code)), compose)
        composed.append(code)
        expect(page.locator("#game-selection")).to_have_text(" ".join(composed))
    assert_one_screen(page)
    page.screenshot(path=artefacts("touch-2-meld-composed"))
    on_screen(control(page, "Meld")).tap()
    expect_version(page, 2)
    expect(page.locator('#game-melds .meld[aria-label$="run: red 1, red 2, red 3"]')).to_have_count(
        1
    )
    assert sorted(rack(page)) == sorted((ALICE_RACK.replace("R1 R2 R3 ", "") + " B6").split())

    # Discard K13 with two taps: the turn passes to Bob.
    on_screen(rack_tile(page, "K13")).tap()
    expect(page.locator("#game-selection")).to_have_text("K13")
    on_screen(control(page, "Discard")).tap()
    expect_version(page, 3)
    expect(page.locator("#game-status")).to_contain_text(f"{bob.username}'s turn")
    assert_one_screen(page)
    page.screenshot(path=artefacts("touch-3-discarded"))


def focused(page: Page) -> str:
    """What has the keyboard focus: a rack tile's code, a button's text, else the tag."""
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          if (!el || el === document.body) return "body";
          if (el.matches("#game-rack .rack-tile")) return "tile " + el.dataset.tile;
          return el.tagName.toLowerCase() + " " + el.textContent.trim();
        }"""
    )


def press_until_focused(page: Page, key: str, wanted: str, limit: int = 20) -> None:
    for _ in range(limit):
        if focused(page) == wanted:
            return
        page.keyboard.press(key)
    assert focused(page) == wanted


def test_the_same_turn_by_keyboard_alone_keeps_focus(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    off_the_browser_loop(known_turn, game.pk)
    page = player(alice, **KEYBOARD_740)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    expect(page.locator("#game-status .your-turn")).to_be_visible()

    # The second stop on the Tab key skips to the rack; then come the rack itself (one stop
    # for all its tiles), its arranging tools (one stop) and the action bar (one stop for all
    # its buttons).
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to your rack")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused(page) == f"tile {rack(page)[0]}"
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_attribute("data-rack", "left")
    page.keyboard.press("Tab")
    assert focused(page) == "button Draw"
    page.keyboard.press("ArrowRight")
    assert focused(page).startswith("button ") and focused(page) != "button Draw"
    page.keyboard.press("Home")
    assert focused(page) == "button Draw"

    # Draw with Enter on the bar: focus stays in the bar (Draw is gone, so its first button).
    page.keyboard.press("Enter")
    expect_version(page, 1)
    assert focused(page).startswith("button "), focused(page)
    assert "B6" in rack(page)

    # Back to the rack (Shift+Tab past its tools), select R1 R2 R3 with the arrows and
    # Space, meld with m.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page).startswith("tile ")
    page.keyboard.press("Home")
    for code in ("R1", "R2", "R3"):
        press_until_focused(page, "ArrowRight", f"tile {code}")
        page.keyboard.press("Space")
    expect(page.locator("#game-selection")).to_have_text("R1 R2 R3")
    page.screenshot(path=artefacts("keyboard-1-meld-composed"))
    page.keyboard.press("m")
    expect_version(page, 2)
    assert focused(page).startswith("tile "), "focus left the rack after the meld"

    # Discard K13: to it with the arrows, Space, then x.
    press_until_focused(page, "ArrowRight", "tile K13", limit=15)
    page.keyboard.press("Space")
    expect(page.locator("#game-selection")).to_have_text("K13")
    page.keyboard.press("x")
    expect_version(page, 3)
    expect(page.locator("#game-status")).to_contain_text(f"{bob.username}'s turn")
    assert focused(page) != "body", "focus went back to the top of the page"
    page.screenshot(path=artefacts("keyboard-2-discarded"))


def test_the_first_melds_running_total_follows_the_selection(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    off_the_browser_loop(known_turn, game.pk, melded=False)
    page = player(alice, **PHONE_740)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    on_screen(control(page, "Draw")).tap()
    total = page.locator("#meld-total")
    expect(total).to_have_text("First melds: 0 / 50")

    for code in ("K11", "K2", "K6"):  # no meld: nothing counts
        on_screen(rack_tile(page, code)).tap()
    expect(total).to_have_attribute("data-tiles", "K11 K2 K6")
    expect(total).to_have_text("First melds: 0 / 50")

    on_screen(control(page, "Clear")).tap()
    for code in ("R1", "R2", "R3"):  # a low run: 5 a tile
        on_screen(rack_tile(page, code)).tap()
    expect(total).to_have_attribute("data-tiles", "R1 R2 R3")
    expect(total).to_have_text("First melds: 15 / 50")
    expect(total).not_to_have_class(re.compile("enough"))
    assert_one_screen(page)
