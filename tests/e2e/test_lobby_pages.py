"""The lobby's page links on a phone-sized screen, with the keyboard and with a tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from games.tables import lifecycle
from games.tables.lobby_presenters import LOBBY_PAGE_SIZE
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, off_the_browser_loop, wait_for_socket

pytestmark = pytest.mark.django_db(transaction=True)

# WCAG 2.5.5: a target a finger can hit is at least 44 by 44 CSS pixels.
TOUCH_TARGET = 44


@pytest.fixture
def two_pages_of_tables() -> None:
    owners = [make_user(f"owner{n}") for n in range(6)]
    for n in range(LOBBY_PAGE_SIZE + 3):
        lifecycle.create_table(owners[n // 5], seat_count=2)


def test_page_links_work_with_the_keyboard_and_a_tap_on_a_phone(
    browser: Browser, live_server, two_pages_of_tables
):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/lobby/")
        pages = page.get_by_role("navigation", name="Pages of open tables")
        older = pages.get_by_role("link", name="Older tables")
        box = older.bounding_box()
        assert box is not None
        assert box["height"] >= TOUCH_TARGET
        assert box["x"] + box["width"] <= 375  # inside the screen, no sideways scrolling

        older.focus()
        page.keyboard.press("Enter")
        expect(page).to_have_url(f"{live_server.url}/lobby/?page=2")
        expect(page.locator("#open-tables .table-card")).to_have_count(3)
        expect(pages.get_by_role("link", name="Page 2")).to_have_attribute("aria-current", "page")

        pages.get_by_role("link", name="Newer tables").tap()
        expect(page).to_have_url(f"{live_server.url}/lobby/?page=1")
        expect(page.locator("#open-tables .table-card")).to_have_count(LOBBY_PAGE_SIZE)
    finally:
        context.close()


@pytest.fixture
def one_socket_per_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """daphne started after this (``asgi_site`` inherits the environment) lets each client
    address hold one socket."""
    monkeypatch.setenv("MAX_SOCKETS_PER_ADDRESS", "1")


def test_a_tab_past_the_socket_cap_says_too_many_open_tabs_and_the_first_stays_live(
    one_socket_per_address, visitor, alice
):
    first = visitor()
    first.goto("/lobby/")
    wait_for_socket(first)
    second = first.context.new_page()  # another tab of the same browser
    second.goto("/lobby/")
    note = second.locator("#socket-limit")
    expect(note).to_be_visible()
    expect(note).to_have_text(
        "Too many open tabs: this page no longer updates by itself. Close some of this "
        "site's tabs, then reload this page."
    )
    # Accepted, then closed at once with the code; the htmx ws extension does not try again.
    # (It does try again after an abnormal close: on a loaded machine the browser may answer
    # the close later than daphne waits, 1 s, and then hear only the dropped connection.
    # The attempt after that is refused with the code, and that one is the last.)
    opened = second.evaluate("window.remiSockets")
    assert opened in (1, 2)
    expect(first.locator("#socket-limit")).to_be_hidden()
    table = off_the_browser_loop(lifecycle.create_table, alice, seat_count=2)
    expect(first.locator(f"#table-card-{table.pk}")).to_be_visible()
    second.wait_for_timeout(500)
    assert second.evaluate("window.remiSockets") == opened
    expect(second.locator(f"#table-card-{table.pk}")).to_have_count(0)
