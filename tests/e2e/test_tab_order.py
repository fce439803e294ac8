"""Issue 30: the Tab key through a game page, with the rack and buttons docked at the bottom of
the screen.  On a Remi page at 375 x 740 the Tab key went from the rules link to the table's
melds, hidden under the dock (the browser counted them as in sight), then through every one
of a 34-tile discard row, one stop a tile, drawn above the melds, before the rack.

For every game, at 375 x 740 and 1280 x 800, at the start of alice's turn in a game under
way: from the top of the page the Tab key goes turn and status, discard row or pile, table,
rack, move buttons, each part once and the discard row, the table and the rack one stop each
(the arrow keys move inside them); every stop of the game is in the viewport and not under
the dock.  A move made from the keyboard leaves the focus in the rack or on the move buttons,
in sight (issue 30, fault 6)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.engine import GAMES
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.e2e.test_phone_glance import under_way

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "phone": {"viewport": {"width": 375, "height": 740}},  # a phone with a keyboard
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
# The parts of a game page in the order the Tab key should reach them (the ids of each
# game's sections: Remi's discard row is #game-row, the card games' pile #game-piles; the
# table is #game-melds in Remi, #game-table in the others).
ORDER = ["game-status", "game-row", "game-piles", "game-melds", "game-table", "game-rack"]
CONTROLS = "game-controls"
# Stops at most in a part: one for the row, pile or table; the rack and its tools.
MOST_STOPS = {"game-row": 1, "game-piles": 1, "game-melds": 1, "game-table": 1, "game-rack": 2}

# The focused element: which part of the game holds it, and whether the eye sees it (in the
# viewport, and what is drawn at its middle is it or inside it, or the card its checkbox
# stands for), with the page's scroll.
FOCUSED = """() => {
  const el = document.activeElement;
  const part = el.closest(
    "#game > section[id], #game .game-board > section[id], #game .game-dock > section[id]");
  const shown = el.closest("label") || el;
  const r = shown.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {
    part: part ? part.id : (el.closest("#game") ? "game" : "outside"),
    chat: el.closest("#game-chat") !== null,
    name: (el.getAttribute("aria-label") || el.textContent || el.tagName).trim().slice(0, 30),
    top: r.top, bottom: r.bottom, left: r.left, right: r.right,
    uncovered: top !== null && (shown === top || shown.contains(top)),
    width: window.innerWidth, height: window.innerHeight,
  };
}"""


def in_sight(stop: dict[str, Any]) -> bool:
    return (
        stop["top"] >= 0
        and stop["left"] >= 0
        and stop["bottom"] <= stop["height"]
        and stop["right"] <= stop["width"]
        and stop["uncovered"]
    )


def walk(page: Page, limit: int = 80) -> list[dict[str, Any]]:
    """Every stop of the Tab key from the top of the page to the table's chat."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUSED)
        if stop["chat"]:
            return stops
        stops.append(stop)
    pytest.fail(f"the Tab key never reached the chat: {[s['name'] for s in stops]}")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("key", list(GAMES))
def test_the_tab_key_goes_through_the_table_in_order_and_in_sight(
    site_context, asgi_site, alice, bob, key, size
):
    game_id, _ = off_the_browser_loop(under_way, key, alice, bob)
    context = site_context(**SIZES[size])
    context.add_cookies([session_cookie(alice, asgi_site.url)])
    page = context.new_page()
    page.goto(f"/games/{game_id}/")
    wait_for_socket(page, 2)
    page.wait_for_load_state("networkidle")
    expect(page.locator("#game-status .your-turn")).to_be_visible()

    stops = walk(page)
    where = f"{key}, {size}"
    in_game = [s for s in stops if s["part"] != "outside"]
    parts: list[str] = []
    for stop in in_game:
        if not parts or parts[-1] != stop["part"]:
            parts.append(stop["part"])
    assert len(parts) == len(set(parts)), f"{where}: the Tab key came back to a part: {parts}"
    expected = [part for part in ORDER if part in parts] + [CONTROLS]
    assert parts[: len(expected)] == expected, f"{where}: the Tab key went {parts}"
    assert "game-rack" in parts, f"{where}: no stop in the rack: {parts}"
    for part, most in MOST_STOPS.items():
        count = sum(stop["part"] == part for stop in in_game)
        assert count <= most, f"{where}: {count} stops in #{part}, not {most} at most"
    # Every stop up to the move buttons and through them: in sight, none under the dock.
    for stop in in_game:
        if stop["part"] in (*ORDER, CONTROLS):
            assert in_sight(stop), f"{where}: a stop out of sight: {stop}"

    # A move from the keyboard: the first of the action bar's buttons (a draw, in every game
    # at this point), pressed with Enter.  The focus stays in the rack or the bar, in sight.
    page.keyboard.press("Shift+Tab")
    while page.evaluate(FOCUSED)["part"] != CONTROLS:
        page.keyboard.press("Shift+Tab")
    page.locator("#game-controls .action-buttons button:not(:disabled)").first.focus()
    version = int(page.locator("#game-status").get_attribute("data-version") or 0)
    page.keyboard.press("Enter")
    expect_version(page, version + 1)
    page.wait_for_function(
        "() => document.activeElement.closest('#game-rack, #game-controls') !== null"
    )
    after = page.evaluate(FOCUSED)
    assert after["part"] in ("game-rack", CONTROLS), f"{where}: focus after the move: {after}"
    assert in_sight(after), f"{where}: the focus after the move is out of sight: {after}"
