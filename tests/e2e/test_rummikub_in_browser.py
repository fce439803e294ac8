"""The tile rummy in a browser: a person and a bot, a first meld composed on the draft by
tapping tiles and drop targets, then a rearrangement (a table tile moved into a new meld)
composed with the keyboard and a meld split and joined again, each change checked as it is
made, the draft surviving a reload, submitted with Done.

The deal is replaced by a position written in notation so the test knows the tiles: Alice
holds a first meld and the tiles for the rearrangement; the bot holds nothing that melds, so
it draws (through a real Celery worker) and the table stays as Alice left it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from games.engine.rummikub import GAME
from games.engine.rummikub.scenario import position
from games.models import Game, Seat
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import expect_version_reached, version

pytestmark = pytest.mark.django_db(transaction=True)

BOT_TIMEOUT_MS = 30_000


@pytest.fixture(autouse=True)
def _quick_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_MOVE_DELAY_MS", "100")


def game_with_a_bot(alice) -> Game:
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2, bots=["normal"])
    game = lifecycle.start_table(table, alice)
    names = GAME.load(game.state).seats
    state = position(
        names=names,
        racks=["R10 R11 R12 R13 K13 B13 Y5", "Y1 K3 B6 Y8 K11"],
        stock="B2 Y2 K5 Y4 K7",
    )
    # Alice to play at version 0: a bot task queued for the real deal finds no bot owing.
    Game.objects.filter(pk=game.pk).update(
        state=GAME.dump(state), to_act=[0], waiting_for_bot=False
    )
    return game


def tile(page: Page, where: str, code: str):
    return page.locator(f'{where} .draft-tile[data-tile="{code}"]').first


def meld(page: Page, number: int):
    return page.locator("#draft-melds .draft-meld").nth(number)


def draft_text(page: Page) -> list[str]:
    return page.locator("#draft-melds .draft-meld").evaluate_all(
        "melds => melds.map(m => Array.from(m.querySelectorAll('.draft-tile'))"
        ".map(t => t.dataset.tile).join(' '))"
    )


def test_a_first_meld_and_a_rearrangement_on_the_draft(player, alice, celery_worker):
    game = off_the_browser_loop(game_with_a_bot, alice)
    page = player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page)
    expect(page.locator("#game-status .your-turn")).to_be_visible()
    expect(page.locator(".first-melds")).to_have_text("First melds: 0 of 30 points.")

    # Tap R10, then "New meld"; then each next tile, then the meld's "Put here".
    tile(page, "#game-rack", "R10").click()
    expect(tile(page, "#game-rack", "R10")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="New meld").click()
    expect(meld(page, 0)).to_contain_text("a meld needs at least three tiles")
    for code in ("R11", "R12"):
        tile(page, "#game-rack", code).click()
        meld(page, 0).get_by_role("button", name="Put here").click()
        expect(tile(page, "#draft-melds", code)).to_be_visible()
    expect(page.locator(".first-melds")).to_have_text("First melds: 33 of 30 points.")
    expect(meld(page, 0)).not_to_have_class("invalid")
    # One tile too many, then back to the rack: the draft says so at once.
    tile(page, "#game-rack", "K13").click()
    meld(page, 0).get_by_role("button", name="Put here").click()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(1)
    tile(page, "#draft-melds", "K13").click()
    page.get_by_role("button", name="Back to the rack").click()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(0)
    tile(page, "#game-rack", "R13").click()
    meld(page, 0).get_by_role("button", name="Put here").click()
    expect(page.locator(".first-melds")).to_have_text("First melds: 46 of 30 points.")

    page.locator("#done-button").click()
    expect(page.locator("#game-log")).to_contain_text(
        "You played 4 tiles: R10 R11 R12 R13. First melds worth 46."
    )

    # The bot draws; the turn comes back with the table as Alice left it.
    expect_version_reached(page, 2)
    expect(page.locator("#game-status .your-turn")).to_be_visible(timeout=BOT_TIMEOUT_MS)
    assert draft_text(page) == ["R10 R11 R12 R13"]

    # The rearrangement, by keyboard: R13 leaves the run for a new set with K13 and B13.
    tile(page, "#draft-melds", "R13").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="New meld").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#draft-melds .draft-meld")).to_have_count(2)
    # The server's answer marks R13 alone as too short: no draft request is out from here.
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(1)
    # K13's draft request is held back by the network until B13 has joined it too: the late
    # answer (R13 K13, B13 still on the rack) must not undo B13, and B13 must still be saved.
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(f"**/games/{game.pk}/draft/", hold_the_first)
    for code in ("K13", "B13"):
        tile(page, "#game-rack", code).focus()
        page.keyboard.press("Enter")
        meld(page, 1).get_by_role("button", name="Put here").focus()
        page.keyboard.press("Enter")
        expect(tile(page, "#draft-melds", code)).to_be_visible()
    # The route handler runs when Playwright next hears from the browser: give it the time.
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1, "K13's draft request never reached the network"
    held[0].continue_()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(0)
    page.unroute(f"**/games/{game.pk}/draft/")
    assert sorted(draft_text(page)) == ["R10 R11 R12", "R13 B13 K13"]
    saved = Seat.objects.get(table=game.table, position=0).rack_order
    assert sorted(sorted(meld) for meld in saved["melds"]) == [
        ["B13", "K13", "R13"],
        ["R10", "R11", "R12"],
    ]

    # Split the run before R11 (two short melds, both marked), then join them again.
    tile(page, "#draft-melds", "R11").click()
    meld(page, 0).get_by_role("button", name="Split").click()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(2)
    assert draft_text(page)[:2] == ["R10", "R11 R12"]
    tile(page, "#draft-melds", "R11").click()
    meld(page, 0).get_by_role("button", name="Join here").click()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(0)
    assert sorted(draft_text(page)) == ["R10 R11 R12", "R13 B13 K13"]

    # The draft is the server's: a reload finds it again.
    at = version(page)
    page.reload()
    assert sorted(draft_text(page)) == ["R10 R11 R12", "R13 B13 K13"]

    page.locator("#done-button").click()
    expect_version_reached(page, at + 1)
    expect(page.locator("#game-log")).to_contain_text("You played 2 tiles: B13 K13.")
    final = GAME.load(Game.objects.get(pk=game.pk).state)
    assert sorted(m.notation() for m in final.table) == ["R10 R11 R12", "R13 B13 K13"]


def test_the_drafts_tools_show_only_where_they_act_on_the_picked_tile(player, alice):
    # Issue 30, fault 8: three buttons under every meld and "Back to the rack" with nothing
    # picked.  Each shows once it can act on the picked tile.
    game = off_the_browser_loop(game_with_a_bot, alice)
    page = player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page)
    back = page.get_by_role("button", name="Back to the rack")
    for code in ("R10", "K13"):
        tile(page, "#game-rack", code).click()
        page.get_by_role("button", name="New meld").click()
        expect(tile(page, "#draft-melds", code)).to_be_visible()
    expect(page.locator("#draft-melds .draft-meld")).to_have_count(2)

    def expect_tools(first: list[str], second: list[str]) -> None:
        for number, names in ((0, first), (1, second)):
            tools = meld(page, number).locator(".draft-tools button:visible")
            expect(tools).to_have_text(names)

    # Nothing picked: no tool under any meld, nothing to send back.
    expect_tools([], [])
    expect(back).to_be_hidden()
    # A rack tile: it may go into any meld.
    tile(page, "#game-rack", "R11").click()
    expect_tools(["Put here"], ["Put here"])
    expect(back).to_be_hidden()
    # A table tile (the rack tile let go first: a tap on a tile would put it there): its own
    # meld may be split, the others joined; it may go back to the rack.
    page.keyboard.press("Escape")
    tile(page, "#draft-melds", "K13").click()
    expect_tools(["Put here", "Join here"], ["Put here", "Split"])
    expect(back).to_be_visible()
    # Let go: the tools go again.
    page.keyboard.press("Escape")
    expect_tools([], [])
    expect(back).to_be_hidden()
