"""A move button pressed the moment the controls are redrawn goes to htmx, not to the browser.

htmx wires what a swap brings only when the swap settles.  A keyboard shortcut that clicked a
move button in between (CI caught it: "x" right after a meld's answer) submitted the unwired
form as a plain GET: the page reloaded and the move was lost.  On every game's page (all load
game-shell.js): redraw the controls and click their first move button at once; the move is
sent (over the page's socket) with the button pressed (its verb), which htmx, wiring the form
as it is submitted, had not seen clicked."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import assert_not_reloaded, mark_page, wait_for_socket
from tests.e2e.game_page import expect_moves_sent
from tests.e2e.test_tap_through_redraw import open_the_game

pytestmark = pytest.mark.django_db(transaction=True)

REDRAW_AND_CLICK = """async () => {
    await htmx.ajax("GET", location.pathname,
        {target: "#game-controls", select: "#game-controls", swap: "outerHTML"});
    document.querySelector('#game-controls button[type="submit"]:not([disabled])').click();
}"""


@pytest.mark.parametrize("game_type", ["remi", "rummikub", "basic-rummy", "thai-rummy"])
def test_a_move_clicked_before_the_redraw_settles_is_sent(game_type, player, alice, bob):
    page = open_the_game(game_type, player, alice, bob)
    address = page.url
    mark_page(page)
    pressed = page.evaluate(
        "() => { const b = document.querySelector("
        "'#game-controls button[type=\"submit\"]:not([disabled])'); return [b.name, b.value]; }"
    )
    heard = page.evaluate("window.remiGameMessages")
    page.evaluate(REDRAW_AND_CLICK)
    (sent,) = expect_moves_sent(page, 1)
    # The button pressed is part of the move (its verb): without it the server cannot read it.
    name, value = pressed
    assert sent[name] == value
    # And the server read it: the answer is the next position, or the move's refusal by the
    # rules, never "could not be read".
    page.wait_for_function("heard => window.remiGameMessages > heard", arg=heard)
    assert "could not be read" not in page.locator("#game-error").inner_text()
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
    # Waited for until answered: a request still in flight when the test ends holds daphne's
    # shutdown (its thread waits on the stopped event loop) until it is killed, 20 s later.
    with page.expect_response(
        lambda response: response.request.method == "POST" and path in response.url
    ) as saved:
        page.evaluate(REDRAW_AND_CHANGE, [region, change])
    assert saved.value.ok


# The chat's form is redrawn by every message sent (its answer is the form again), and sits
# outside the game's region.  Enter pressed in a box htmx had not wired yet (CI caught it: a
# message typed right after a quick phrase) submitted the form as a plain GET: the page
# reloaded with the message in its address, and the message was never sent.  A copy of the
# form stands for one a swap has just brought: htmx has not wired it.
REDRAW_CHAT_AND_SEND = """([text, phrase]) => {
    const drawn = document.querySelector("#chat-form");
    const fresh = drawn.cloneNode(true);
    drawn.replaceWith(fresh);
    fresh.querySelector("#chat-text").value = text;
    const button = phrase ? fresh.querySelector(`button[value="${phrase}"]`) : null;
    fresh.requestSubmit(button);
}"""


@pytest.mark.parametrize(
    ("typed", "phrase", "sent_line"),
    [("Well played", "", "Well played"), ("", "good-luck", "Good luck!")],
    ids=["typed", "quick phrase"],
)
def test_a_chat_message_sent_before_the_redraw_settles_is_posted(
    typed, phrase, sent_line, player, alice, bob
):
    page = open_the_game("remi", player, alice, bob)
    wait_for_socket(page, 3)  # the game's, the chat's and the badge's
    address = page.url
    mark_page(page)
    with page.expect_response(lambda r: r.request.method == "POST" and "/chat/" in r.url) as sent:
        page.evaluate(REDRAW_CHAT_AND_SEND, [typed, phrase])
    fields = parse_qs(sent.value.request.post_data, keep_blank_values=True)
    assert fields["text"] == [typed]
    assert fields.get("phrase") == ([phrase] if phrase else None)
    assert sent.value.status == 200
    expect(page.locator("#chat-lines")).to_contain_text(sent_line)
    assert page.url == address
    assert_not_reloaded(page)
