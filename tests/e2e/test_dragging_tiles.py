"""Dragging Remi's tiles with the mouse (SortableJS, which a touch screen drives the same
way): along the rack to arrange it, which the server keeps; onto the selection line to compose
a move; onto a table meld to pick it with the tile."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from games.models import Game, Seat
from games.play import services
from tests.e2e.conftest import PHONE, off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import expect_version, version
from tests.e2e.touch import SETTLE_MS, Finger, Mouse
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)


def rack_codes(page) -> list[str]:
    return page.locator("#game-rack .rack-tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.tile)"
    )


def expect_saved(page, game: Game, user, order: list[str]) -> None:
    """The server keeps ``order`` as the user's rack (the rack form posts in the background)."""
    seat = Seat.objects.get(table=game.table, user=user)

    def saved() -> list[str]:
        seat.refresh_from_db()
        return (seat.rack_order or {}).get("tiles", [])

    for _ in range(100):
        if saved() == order:
            return
        page.wait_for_timeout(100)
    assert saved() == order


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
    expect_saved(page, game, alice, after)

    # Out of the rack onto the selection line: the tile is selected and stays in the rack.
    code = after[0]
    tiles.nth(0).drag_to(page.locator("#game-compose"))
    expect(page.locator("#game-selection")).to_have_text(code)
    assert rack_codes(page) == after
    expect(tiles.nth(0)).to_have_attribute("aria-pressed", "true")


# Every socket message's game version, recorded as it arrives (before the page draws it).
ARRIVALS = """
window.remiArrivals = [];
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  const found = /class="version"[^>]*>v(\\d+)</.exec(String(event.detail.message));
  if (found) window.remiArrivals.push(Number(found[1]));
});
"""


def first_discards(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    first = game.state["first_player"]
    services.play(game_id, first, f"discard {game.state['racks'][first].split()[0]}", 0)


def open_rack(player, user, game: Game, hand, script: str):
    """``user``'s page of ``game`` on a phone (a finger) or a desktop (a mouse), live, with
    ``script`` run before the page's own."""
    page = player(user, **(PHONE if hand is Finger else {}))
    page.add_init_script(script)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    page.wait_for_function("() => window.Sortable !== undefined")
    expect_version(page, 0)
    return page


HELD_TILE_IS_LAST = """() => {
  const tiles = document.querySelectorAll("#game-rack .rack-tile");
  return tiles.length > 0 && tiles[tiles.length - 1].classList.contains("sortable-chosen");
}"""


def slide_first_tile_to_the_end_while(page, hand, news: Callable[[], None]) -> None:
    """Hold the rack's first tile over its last while ``news`` brings the next version to the
    page, which must not draw it until the tile is dropped."""
    tiles = page.locator("#game-rack .rack-tile")
    finger = hand(page)
    try:
        finger.hold(tiles.nth(0))
        finger.slide_to(tiles.nth(tiles.count() - 1))
        # SortableJS has moved the held tile to the end: on a loaded machine the slide can end
        # before the browser has handled it, and the drop would then be where it started.
        page.wait_for_function(HELD_TILE_IS_LAST)
        news()
        page.wait_for_timeout(SETTLE_MS)  # time to draw it, were it drawn under the finger
        assert version(page) == 0  # it waits for the drop
    finally:
        finger.lift()
    expect_version(page, 1)  # drawn after the drop


@pytest.mark.parametrize("hand", [Finger, Mouse], ids=["finger", "mouse"])
def test_a_move_that_comes_while_a_tile_is_held_waits_for_the_drop(player, alice, bob, hand):
    """The other player moves while Bob holds a tile he is moving along his rack.  Drawn at
    once, the move's redraw would put a new rack under his finger and the drop would land
    in the old one: his order unsaved, the tile back where it was.  The move is drawn once
    the tile is dropped, by finger (touch events) or by mouse (the browser's drag and drop)."""
    game = off_the_browser_loop(two_player_game, alice, bob)
    waiting = bob if game.state["first_player"] == 0 else alice
    page = open_rack(player, waiting, game, hand, ARRIVALS)
    before = rack_codes(page)

    def the_other_discards() -> None:
        off_the_browser_loop(first_discards, game.pk)
        page.wait_for_function("() => window.remiArrivals.includes(1)")

    slide_first_tile_to_the_end_while(page, hand, the_other_discards)
    after = rack_codes(page)
    assert after != before and sorted(after) == sorted(before)
    expect_saved(page, game, waiting, after)


# The answers to the game's forms, counted as they arrive (before the page draws them).
# The answer to the page's move, come over the socket (or by HTTP, had the socket been down).
ANSWERS = """
window.remiAnswers = 0;
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.elt.id === "action-form") window.remiAnswers += 1;
}, true);
document.addEventListener("htmx:wsBeforeMessage", (event) => {
  if (String(event.detail.message).startsWith("<!--acted-->")) window.remiAnswers += 1;
}, true);
"""


def twins_first(game_id: int, seat: int) -> None:
    """The seat's rack begins with a tile and its twin (taken from the wall if need be), as
    the player arranged it."""
    game = Game.objects.get(pk=game_id)
    state = dict(game.state)
    racks = list(state["racks"])
    rack, wall = racks[seat].split(), state["wall"].split()
    twin = next((t for t in rack if rack.count(t) == 2), None)
    if twin is None:
        twin = next(t for t in rack if t in wall)
        given = next(t for t in rack if t != twin)
        rack[rack.index(given)], wall[wall.index(twin)] = twin, given
    rest = list(rack)
    rest.remove(twin)
    rest.remove(twin)
    racks[seat] = " ".join(rack)
    state.update(racks=racks, wall=" ".join(wall))
    Game.objects.filter(pk=game_id).update(state=state)
    Seat.objects.filter(table=game.table, position=seat).update(
        rack_order={"game": game_id, "tiles": [twin, twin, *rest]}
    )


@pytest.mark.parametrize(
    "hand,twins", [(Finger, False), (Mouse, False), (Finger, True)], ids=["finger", "mouse", "twin"]
)
def test_the_answer_to_a_move_sent_while_a_tile_is_held_waits_for_the_drop(
    player, alice, bob, hand, twins
):
    """The player discards and, before the answer comes, moves a tile along the rack (a slow
    connection makes that easy).  The answer redraws the rack; drawn under the finger, the
    drop would land in the old rack and be lost.  It is drawn after the drop, and the order
    the server keeps is the new rack's in the player's arrangement.  When the tile held is
    the twin of the one played, it is the held one the rack keeps, where it was dropped."""
    game = off_the_browser_loop(two_player_game, alice, bob)
    first = bob if game.state["first_player"] == 1 else alice
    if twins:
        off_the_browser_loop(twins_first, game.pk, game.state["first_player"])
    page = open_rack(player, first, game, hand, ANSWERS)
    before = rack_codes(page)
    assert before[0] == before[1] or not twins
    selected = page.locator("#game-rack .rack-tile").nth(1)
    selected.click()  # the discard the move will carry
    expect(selected).to_have_attribute("aria-pressed", "true")

    def the_player_discards() -> None:
        # Clicked by script: the held finger or mouse is busy, as a second finger would be.
        page.locator("#action-form button[value=discard]").evaluate("button => button.click()")
        page.wait_for_function("() => window.remiAnswers === 1")

    slide_first_tile_to_the_end_while(page, hand, the_player_discards)
    after = rack_codes(page)
    # The second tile went out (a rack may hold its twin); the held tile went to the end,
    # the others kept their order.
    assert after == [*before[2:], before[0]]
    expect_saved(page, game, first, after)
    expect(page.locator("#game-error")).to_be_empty()
