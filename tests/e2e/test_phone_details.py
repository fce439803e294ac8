"""Small things a phone gets wrong (issue 30, fault 8): the chat's box is big enough to type in
without the phone zooming the page (iOS zooms into text under 16 px on focus) and to hit with
a thumb (44 px)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.conftest import off_the_browser_loop

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}
THUMB = 44  # CSS pixels (WCAG 2.5.5)


def test_the_chat_box_is_thumb_sized_and_does_not_zoom_the_page(player, alice, bob):
    def started() -> int:
        table = services.create_table(alice, game_type="remi", seat_count=2)
        services.join_table(table, bob)
        return services.start_table(table, alice).pk

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
