"""Dragging the tile rummy's tiles (SortableJS), by finger on a phone and by mouse: from the
rack onto "New meld", onto that meld, and back to the rack; each drop changes the draft as
tap-tap would, and the server judges it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from games.engine.rummikub import GAME
from games.engine.rummikub.scenario import position
from games.models import Game
from games.tables import lifecycle
from tests.e2e.conftest import PHONE, off_the_browser_loop, wait_for_socket
from tests.e2e.touch import Finger, touch_drag

pytestmark = pytest.mark.django_db(transaction=True)


def alices_turn(alice, bob) -> Game:
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = position(
        names=GAME.load(game.state).seats,
        racks=["R10 R11 R12 K13 B13 Y5", "Y1 K3 B6 Y8 K11"],
        stock="B2 Y2 K5 Y4 K7",
    )
    Game.objects.filter(pk=game.pk).update(state=GAME.dump(state), to_act=[0])
    return game


def alices_page(player, alice, bob, **device) -> Page:
    """Alice's page at her turn, live and ready for dragging."""
    game = off_the_browser_loop(alices_turn, alice, bob)
    page = player(alice, **device)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    page.wait_for_function("() => window.Sortable !== undefined")
    return page


def tile(page: Page, where: str, code: str):
    return page.locator(f'{where} .draft-tile[data-tile="{code}"]').first


def draft_text(page: Page) -> list[str]:
    return page.locator("#draft-melds .draft-meld").evaluate_all(
        "melds => melds.map(m => Array.from(m.querySelectorAll('.draft-tile'))"
        ".map(t => t.dataset.tile).join(' '))"
    )


def settle(page: Page) -> None:
    """The draft's answer is in (it redraws the table and the rack)."""
    expect(page.locator("#draft-form.htmx-request")).to_have_count(0)


def soon(page: Page, condition: Callable[[], object], what: str, timeout_ms: int = 15_000) -> None:
    """Until ``condition`` holds; the page's events (requests, routes) are taken in while
    waiting."""
    for _ in range(timeout_ms // 20):
        if condition():
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"waited {timeout_ms} ms for {what}")


@pytest.mark.parametrize("touch", [True, False], ids=["finger", "mouse"])
def test_tiles_are_dragged_into_a_new_meld_and_back(player, alice, bob, touch: bool):
    page = alices_page(player, alice, bob, **(PHONE if touch else {}))

    draft_posts: list[str] = []
    page.on(
        "request",
        lambda request: (
            draft_posts.append(request.url)
            if request.method == "POST" and request.url.endswith("/draft/")
            else None
        ),
    )

    def drag(source, target) -> None:
        before = len(draft_posts)
        if touch:
            touch_drag(page, source, target)
        else:
            source.drag_to(target)
        soon(page, lambda: len(draft_posts) > before, "the drop's draft request")
        settle(page)
        # One drop, one request: a second one would redraw the lists under the next drag.
        assert len(draft_posts) == before + 1

    drag(tile(page, "#game-rack", "R10"), page.get_by_role("button", name="New meld"))
    expect(page.locator("#draft-melds .draft-meld")).to_have_count(1)
    for code in ("R11", "R12"):
        drag(tile(page, "#game-rack", code), tile(page, "#draft-melds", "R10"))
    expect(page.locator(".first-melds")).to_have_text("First melds: 33 of 30 points.")
    assert sorted(draft_text(page)[0].split()) == ["R10", "R11", "R12"]

    # Back to the rack: the meld is short again, and the server says so.
    drag(tile(page, "#draft-melds", "R12"), tile(page, "#game-rack", "Y5"))
    expect(tile(page, "#game-rack", "R12")).to_be_visible()
    expect(page.locator("#draft-melds .draft-meld.invalid")).to_have_count(1)
    assert sorted(draft_text(page)[0].split()) == ["R10", "R11"]


def test_an_answer_that_comes_while_a_tile_is_held_waits_for_the_drop(player, alice, bob):
    """The server's answer to the previous change lands while the next tile is held: drawn
    then, it would replace the lists under the finger and the drop would post that tile
    twice.  It waits, and the drop's own answer is drawn."""
    page = alices_page(player, alice, bob, **PHONE)
    statuses: list[int] = []
    page.on(
        "response",
        lambda response: (
            statuses.append(response.status) if response.url.endswith("/draft/") else None
        ),
    )
    held: list[Route] = []

    def hold_back(route: Route) -> None:
        held.append(route)

    page.route("**/draft/", hold_back)

    tile(page, "#game-rack", "R10").tap()
    page.get_by_role("button", name="New meld").tap()
    soon(page, lambda: held, "the tap's draft request, kept back")
    finger = Finger(page)
    try:
        finger.hold(tile(page, "#game-rack", "R11"))
        held[0].continue_()
        page.unroute("**/draft/", hold_back)
        settle(page)  # answered while the tile is held
        assert statuses == [200]
        finger.slide_to(tile(page, "#draft-melds", "R10"))
    finally:
        finger.lift()
    soon(page, lambda: len(statuses) == 2, "the drop's draft request answered")
    settle(page)

    assert statuses == [200, 200]
    expect(page.locator(".first-melds")).to_have_text("First melds: 0 of 30 points.")
    assert sorted(draft_text(page)[0].split()) == ["R10", "R11"]
    rack = page.locator("#game-rack .draft-tile").evaluate_all("ts => ts.map(t => t.dataset.tile)")
    assert sorted(rack) == ["B13", "K13", "R12", "Y5"]
