"""Small things a phone gets wrong (issue 30, fault 8): the chat's box is big enough to type in
without the phone zooming the page (iOS zooms into text under 16 px on focus) and to hit with
a thumb (44 px); a tournament's standings come before its rules."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import GAMES
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop
from tests.games.test_deal_verification import play_out
from tests.tournaments.helpers import under_way

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}
THUMB = 44  # CSS pixels (WCAG 2.5.5)


def test_the_chat_box_is_thumb_sized_and_does_not_zoom_the_page(player, alice, bob):
    def started() -> int:
        table = lifecycle.create_table(alice, game_type="remi", seat_count=2)
        lifecycle.join_table(table, bob)
        return lifecycle.start_table(table, alice).pk

    page = player(alice, **PHONE)
    page.goto(f"/games/{off_the_browser_loop(started)}/")
    box = page.locator("#chat-text")
    expect(box).to_be_attached()
    size = box.evaluate("input => parseFloat(getComputedStyle(input).fontSize)")
    assert size >= 16, f"the chat's text is {size} px"
    height = box.evaluate("input => input.getBoundingClientRect().height")
    assert height >= THUMB, f"the chat's box is {height} px high"
    send = page.locator("#chat-form").get_by_role("button", name="Send")
    assert send.evaluate("b => b.getBoundingClientRect().height") >= THUMB


def test_a_running_tournament_shows_its_standings_first(player, alice, bob, carol):
    """The tournament page put 1,300 px of rules before the standings, and the standings'
    first five columns in a sideways scroller: the standings come first, their key columns
    in sight, the rules folded below."""

    page = player(bob, **PHONE)
    page.goto(f"/tournaments/{off_the_browser_loop(lambda: under_way(alice, bob, carol).pk)}/")
    expect(page.get_by_role("heading", name="Standings")).to_be_in_viewport()
    expect(page.locator("#standings thead th").first).to_be_visible()
    # Read in one go: the page's socket may redraw the standings at any moment.
    rights = page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#standings thead th'))"
        ".map(th => [th.textContent.trim(), th.getBoundingClientRect().right]))"
    )
    for column in ("Player", "Match points", "Played"):
        assert rights[column] <= 375, f"{column} ends at {rights[column]} px"
    rules = page.locator("#tournament-rules")
    assert rules.evaluate("d => d.open") is False
    page.get_by_role("heading", name="Rules").click()
    assert rules.evaluate("d => d.open") is True


def test_the_new_table_form_fits_a_phone_with_the_rest_folded(player, alice):
    """The new-table form was 4,200 px tall with options cut off: the game, its rules, the
    players and the pace come first, the rest folded under "More options", which opens by
    keyboard too."""
    page = player(alice, **PHONE)
    page.goto("/tables/new/")
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    for label in ("Game", "Rules", "Seats"):
        expect(page.get_by_label(label, exact=True)).to_be_visible()
    height = page.locator("#table-form").evaluate("f => f.getBoundingClientRect().height")
    assert height <= 2 * 740, f"the form is {height} px tall folded"
    expect(page.locator("#create-table-submit")).to_be_visible()
    doubla = page.locator("#id_doubla")
    expect(doubla).to_be_hidden()
    page.locator("#more-options > summary").focus()
    page.keyboard.press("Enter")
    expect(doubla).to_be_visible()


@pytest.mark.parametrize("key", list(GAMES))
def test_the_replay_keeps_previous_and_next_in_reach(player, alice, bob, key):
    """Replay's Previous and Next scrolled away with the board: they stay in sight."""

    def finished() -> int:
        table = lifecycle.create_table(alice, game_type=key, seat_count=2)
        lifecycle.join_table(table, bob)
        return play_out(lifecycle.start_table(table, alice)).pk

    page = player(alice, **PHONE)
    page.goto(f"/games/{off_the_browser_loop(finished)}/replay/?step=3")
    nav = page.get_by_role("navigation", name="Replay")
    expect(nav).to_be_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    expect(nav.get_by_role("button", name=re.compile("Next"))).to_be_in_viewport()
    expect(nav.get_by_role("button", name=re.compile("Previous"))).to_be_in_viewport()
