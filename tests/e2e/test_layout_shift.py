"""Nothing moves once a page is drawn: on a phone the main menu is folded from the first paint
(issue 30: it was drawn open and folded when the script ran, pushing the page ~110 px down,
a layout shift of 0.11 to 0.14 on every page); without script it stays open, every link in reach."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

# The layout shifts the browser recorded since the page began (buffered), summed as
# cumulative layout shift sums them (shifts right after the user's input do not count).
SHIFTS = """() => new Promise(resolve => {
  let total = 0;
  const seen = [];
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) { total += entry.value; seen.push(entry.value); }
    }
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => resolve({total, seen}), 250);
})"""


def slow_scripts(page: Page) -> None:
    """Scripts arrive half a second late, as on a slow phone network: the page is painted
    before they run, so anything they move is seen moving."""

    def late(route: Route) -> None:
        page.wait_for_timeout(500)
        route.continue_()

    page.route("**/*.js", late)


def settled(page: Page) -> None:
    page.wait_for_load_state("load")
    expect(page.locator(".site-nav")).to_be_visible()


@pytest.mark.parametrize("path", ["/", "/lobby/", "/tournaments/", "/rules/"])
def test_a_phone_page_does_not_shift_once_drawn(browser: Browser, live_server, path: str):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    slow_scripts(page)
    try:
        page.goto(live_server.url + path)
        settled(page)
        shifts = page.evaluate(SHIFTS)
        assert shifts["total"] < 0.01, f"layout shifts {shifts['seen']} on {path}"
        menu = page.get_by_role("navigation", name="Main")
        expect(menu.get_by_role("link", name="Lobby")).to_be_hidden()
        menu.get_by_role("button", name="Menu").tap()
        expect(menu.get_by_role("link", name="Lobby")).to_be_visible()
    finally:
        context.close()


def test_without_script_the_phone_menu_stays_open(browser: Browser, live_server):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        menu = page.get_by_role("navigation", name="Main")
        expect(menu.get_by_role("link", name="Lobby")).to_be_visible()
        expect(menu.get_by_role("link", name="Tournaments")).to_be_visible()
        expect(menu.get_by_role("button", name="Menu")).to_be_hidden()
    finally:
        context.close()
