"""Issue 30, "Motion", after a reload: what another seat's turn put down keeps its ring
(``last-move``) when the page is loaded again, as it had live. The card games' marks were
the page script's alone and a reload lost them; the server now names the last turn's pieces.
The tile games drew older marks of their own after a reload (whole melds, the first tiles of
each face a play placed); they now name the very pieces the script rings, counted per face.

For each card game: alice's page is open while bob plays his turn (through the service
layer); the pieces ringed live are recorded, then the page is reloaded and must ring the same
pieces, the newest discard among them; a spectator who opens the page then sees the same; bob,
whose turn it was, sees no ring on his own move; and once alice has played, her reloaded page
rings nothing of bob's."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from games.engine import GAMES
from games.presenters import presenter_for
from games.presenters.card_rummy import CardRummyPresentation
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.e2e.test_motion import DESKTOP, NEWEST_DISCARD, play_turn
from tests.e2e.test_phone_glance import under_way

pytestmark = pytest.mark.django_db(transaction=True)

LAST_MOVE = re.compile(r"\blast-move\b")
CARD_GAMES = [key for key in GAMES if isinstance(presenter_for(key), CardRummyPresentation)]
TILE_GAMES = [key for key in GAMES if key not in CARD_GAMES]

# Each ringed piece as part, face and how many alike come before it in that part (a face as
# game-shell.js tells it: a Remi meld's tiles have no data-tile, their colour and text say it).
RINGED = r"""() => {
  const seen = [];
  for (const part of document.querySelectorAll("#game section[id]")) {
    const count = {};
    for (const el of part.querySelectorAll(".tile, .card:not(.card-back):not(.card-empty)")) {
      const face = el.dataset.tile || el.dataset.card
        || el.className.match(/(tile|card)-\w+|$/)[0] + el.textContent.replace(/\s/g, "");
      count[face] = (count[face] || 0) + 1;
      if (el.classList.contains("last-move")) seen.push(`${part.id} ${face} ${count[face]}`);
    }
  }
  return seen.sort();
}"""


def game_page(site_context, asgi_site, user, game_id: int) -> Page:
    """``user``'s page of the game on a desktop, live."""
    context = site_context(**DESKTOP)
    context.add_cookies([session_cookie(user, asgi_site.url)])
    page = context.new_page()
    page.goto(f"/games/{game_id}/")
    wait_for_socket(page, 2)
    return page


@pytest.mark.parametrize("key", CARD_GAMES)
def test_the_last_turn_stays_ringed_after_a_reload(site_context, asgi_site, alice, bob, carol, key):
    game_id, discarding = off_the_browser_loop(under_way, key, alice, bob)
    assert discarding
    rng = random.Random(5)
    off_the_browser_loop(play_turn, game_id, 0, rng)  # alice's turn: now bob's

    def open_page(user) -> Page:
        return game_page(site_context, asgi_site, user, game_id)

    page = open_page(alice)
    version = off_the_browser_loop(play_turn, game_id, 1, rng)
    expect_version(page, version)
    expect(page.locator(NEWEST_DISCARD)).to_have_class(LAST_MOVE)
    live = page.evaluate(RINGED)
    assert live, f"{key}: nothing ringed live"

    page.reload()
    wait_for_socket(page, 2)
    expect_version(page, version)
    assert page.evaluate(RINGED) == live, f"{key}: the reload rings other pieces"
    expect(page.locator(NEWEST_DISCARD)).to_have_class(LAST_MOVE)

    assert open_page(carol).evaluate(RINGED) == live, f"{key}: the spectator sees other rings"
    assert open_page(bob).evaluate(RINGED) == [], f"{key}: bob's own move is ringed for him"

    version = off_the_browser_loop(play_turn, game_id, 0, rng)
    expect_version(page, version)
    expect(page.locator("#game .last-move")).to_have_count(0)
    page.reload()
    expect_version(page, version)
    assert page.evaluate(RINGED) == [], f"{key}: bob's marks are back after alice's turn"


@pytest.mark.parametrize("key", TILE_GAMES)
def test_the_tiles_of_the_last_turn_stay_ringed_after_a_reload(
    site_context, asgi_site, alice, bob, carol, key
):
    """Bob's turns are played until one puts several tiles down (a tile rummy's turn may be a
    draw alone, a Remi turn a discard alone); alice's page rings them live, and again, the
    same and nothing else, reloaded."""
    game_id, _ = off_the_browser_loop(under_way, key, alice, bob)
    rng = random.Random(5)

    def open_page(user) -> Page:
        return game_page(site_context, asgi_site, user, game_id)

    page = open_page(alice)
    live: list[str] = []
    for _ in range(20):
        off_the_browser_loop(play_turn, game_id, 0, rng)  # alice's turn: now bob's
        version = off_the_browser_loop(play_turn, game_id, 1, rng)
        expect_version(page, version)
        if len(live := page.evaluate(RINGED)) > 1:
            break
    assert len(live) > 1, f"{key}: twenty turns of bob's and none put two tiles down"

    page.reload()
    wait_for_socket(page, 2)
    expect_version(page, version)
    assert page.evaluate(RINGED) == live, f"{key}: the reload rings other tiles"
    assert open_page(carol).evaluate(RINGED) == live, f"{key}: the spectator sees other rings"
    assert open_page(bob).evaluate(RINGED) == [], f"{key}: bob's own move is ringed for him"
