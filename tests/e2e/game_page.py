"""What the browser tests read from and do on the game page (games/remi/game.html)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

GAME_URL = re.compile(r"/games/(\d+)/$")


def version(page: Page) -> int:
    text = page.locator("#game-status .version").inner_text()
    return int(text.removeprefix("v"))


def expect_version(page: Page, number: int) -> None:
    expect(page.locator("#game-status .version")).to_have_text(f"v{number}")


def expect_version_reached(page: Page, number: int) -> None:
    """Wait until the page shows version ``number`` or a later one (bots may move on at once)."""
    page.wait_for_function(
        """number => {
          const shown = document.querySelector("#game-status .version");
          return shown !== null && Number(shown.textContent.slice(1)) >= number;
        }""",
        arg=number,
    )


def socket_versions(page: Page) -> list[int]:
    """The game versions the page's socket delivered, in order, apart from the answers to the
    page's own moves: their announcements are not sent to it again (games.play.page_tabs, and the
    consumer's own answers)."""
    return page.evaluate("window.remiSocketVersions")


def moves_sent(page: Page) -> list[dict]:
    """The moves the page sent over its socket, as their fields."""
    return page.evaluate("window.remiMovesSent")


def expect_moves_sent(page: Page, count: int) -> list[dict]:
    """Wait until the page has sent ``count`` moves over its socket; they are returned."""
    page.wait_for_function("count => window.remiMovesSent.length >= count", arg=count)
    return moves_sent(page)


def cut_the_socket(page: Page) -> None:
    """Every game socket the page opens from now on is refused, so its moves go by HTTP
    (call before the page is opened)."""
    page.route_web_socket(re.compile(r"/ws/games/\d+/"), lambda ws: ws.close(code=1011))


def rack(page: Page) -> list[str]:
    """The tiles on the viewer's rack, in the order shown."""
    return page.locator("#game-rack .rack-tile").evaluate_all(
        "tiles => tiles.map(tile => tile.dataset.tile)"
    )


def discard_row(page: Page) -> list[str]:
    return page.locator("#game-row .row-tile").evaluate_all(
        "tiles => tiles.map(tile => tile.dataset.tile)"
    )


def button(page: Page, name: str):
    return page.locator("#game-controls").get_by_role("button", name=name, exact=True)


def select_tile(page: Page, code: str) -> None:
    tile = page.locator(f'#game-rack .rack-tile[data-tile="{code}"][aria-pressed="false"]')
    tile.first.click()


def draw(page: Page) -> None:
    """Draw from the wall with the Draw button; waits until the move is in."""
    before = version(page)
    button(page, "Draw").click()
    expect_version_reached(page, before + 1)


def discard(page: Page, code: str | None = None) -> str:
    """Select a tile (the first on the rack unless told) and press Discard; waits until the
    move is in and returns the tile."""
    before = version(page)
    code = code or rack(page)[0]
    select_tile(page, code)
    expect(page.locator("#game-selection")).to_have_text(code)
    button(page, "Discard").click()
    expect_version_reached(page, before + 1)
    return code


def play_notation(page: Page, move: str) -> None:
    """Type a move in the notation form and send it (no waiting: it may be refused)."""
    box = page.locator("#game-controls details.notation")
    if box.get_attribute("open") is None:  # it stays open after a move typed there
        page.locator("#game-controls summary", has_text="Type a move").click()
    page.locator("#notation-input").fill(move)
    page.locator("#notation-form").get_by_role("button", name="Play", exact=True).click()


def expect_error(page: Page, message: str) -> None:
    expect(page.locator("#game-error")).to_have_text(message)
