"""Dragging Remi's tiles with the mouse (SortableJS, which a touch screen drives the same
way): along the rack to arrange it, which the server keeps; onto the selection line to compose
a move; onto a table meld to pick it with the tile."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Seat
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)


def rack_codes(page) -> list[str]:
    return page.locator("#game-rack .rack-tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.tile)"
    )


def test_dragging_arranges_the_rack_and_composes_a_move(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    page = player(alice)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 3)
    page.wait_for_function("() => window.Sortable !== undefined")
    before = rack_codes(page)
    tiles = page.locator("#game-rack .rack-tile")

    # Along the rack: the first tile goes to the end, and the order is saved.
    tiles.nth(0).drag_to(tiles.nth(len(before) - 1), target_position={"x": 30, "y": 20})
    after = rack_codes(page)
    assert after != before and sorted(after) == sorted(before)
    assert after[-1] == before[0]
    seat = Seat.objects.get(table=game.table, user=alice)

    def saved() -> list[str]:
        seat.refresh_from_db()
        return (seat.rack_order or {}).get("tiles", [])

    for _ in range(100):  # the rack form posts in the background
        if saved() == after:
            break
        page.wait_for_timeout(100)
    assert saved() == after

    # Out of the rack onto the selection line: the tile is selected and stays in the rack.
    code = after[0]
    tiles.nth(0).drag_to(page.locator("#game-compose"))
    expect(page.locator("#game-selection")).to_have_text(code)
    assert rack_codes(page) == after
    expect(tiles.nth(0)).to_have_attribute("aria-pressed", "true")
