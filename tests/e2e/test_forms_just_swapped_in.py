"""A move button pressed the moment the controls are redrawn goes to htmx, not to the browser.

htmx wires what a swap brings only when the swap settles.  A keyboard shortcut that clicked a
move button in between (CI caught it: "x" right after a meld's answer) submitted the unwired
form as a plain GET: the page reloaded and the move was lost.  On every game's page (all load
game-shell.js): redraw the controls and click their first move button at once; the move is
posted with the button pressed (its verb), which htmx, wiring the form as it is submitted,
had not seen clicked."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import assert_not_reloaded, mark_page
from tests.e2e.test_tap_through_redraw import open_the_game

pytestmark = pytest.mark.django_db(transaction=True)

REDRAW_AND_CLICK = """async () => {
    await htmx.ajax("GET", location.pathname,
        {target: "#game-controls", select: "#game-controls", swap: "outerHTML"});
    document.querySelector('#game-controls button[type="submit"]:not([disabled])').click();
}"""


@pytest.mark.parametrize("game_type", ["remi", "rummikub", "basic-rummy", "thai-rummy"])
def test_a_move_clicked_before_the_redraw_settles_is_posted(game_type, player, alice, bob):
    page = open_the_game(game_type, player, alice, bob)
    address = page.url
    mark_page(page)
    pressed = page.evaluate(
        "() => { const b = document.querySelector("
        "'#game-controls button[type=\"submit\"]:not([disabled])'); return [b.name, b.value]; }"
    )
    with page.expect_response(lambda r: r.request.method == "POST" and "/act/" in r.url) as sent:
        page.evaluate(REDRAW_AND_CLICK)
    # The button pressed is part of the move (its verb): without it the server cannot read it.
    assert "=".join(pressed) in sent.value.request.post_data.split("&")
    assert sent.value.status == 200
    page.wait_for_timeout(300)
    assert page.url == address
    assert_not_reloaded(page)


# The forms the page's script sends by an event of its own (the tile rummy's draft, Remi's rack
# order) are in redrawn regions too: an event fired at a form htmx has not wired yet was lost,
# and with it every later change of the draft (the script waits for an answer that never came).
CHANGE_AFTER_REDRAW = {
    "remi": ("#game-rack", '#game-rack [data-rack="sort-number"]', "/rack/"),
    "rummikub": ("#game-controls", '#game-table [data-drop="new"]', "/draft/"),
}
REDRAW_AND_CHANGE = """async ([region, change]) => {
    await htmx.ajax("GET", location.pathname, {target: region, select: region, swap: "outerHTML"});
    document.querySelector("#game-rack button[data-tile]").click();
    document.querySelector(change).click();
}"""


@pytest.mark.parametrize("game_type", list(CHANGE_AFTER_REDRAW))
def test_a_change_made_before_the_redraw_settles_is_saved(game_type, player, alice, bob):
    region, change, path = CHANGE_AFTER_REDRAW[game_type]
    page = open_the_game(game_type, player, alice, bob)
    with page.expect_request(lambda request: request.method == "POST" and path in request.url):
        page.evaluate(REDRAW_AND_CHANGE, [region, change])
