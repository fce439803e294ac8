"""A visitor switches the site to Romanian on the home page, on a phone, and the choice holds
while they move around; the keyboard reaches the switcher too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

TOUCH_TARGET = 44  # CSS pixels, WCAG 2.5.5


def test_a_visitor_switches_to_romanian_and_the_choice_survives_navigation(
    browser: Browser, live_server
):
    context = browser.new_context(**PHONE, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(live_server.url)
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.get_by_role("link", name="Create an account")).to_be_visible()

        # On a phone the languages are in the menu, folded behind its button.
        page.get_by_role("navigation", name="Main").get_by_role("button", name="Menu").tap()
        switcher = page.get_by_role("form", name="Language")
        romanian = switcher.get_by_role("button", name="Română")
        box = romanian.bounding_box()
        assert box is not None
        assert box["height"] >= TOUCH_TARGET and box["width"] >= TOUCH_TARGET
        assert box["x"] + box["width"] <= 375  # on the screen, no sideways scrolling
        romanian.tap()

        expect(page).to_have_url(f"{live_server.url}/")
        expect(page.locator("html")).to_have_attribute("lang", "ro")
        expect(page.get_by_role("link", name="Creează un cont")).to_be_visible()
        expect(page.get_by_role("link", name="Create an account")).to_have_count(0)
        # The menu's button is named in Romanian too (tapped once the page's deferred script,
        # which opens the menu, has run).
        page.wait_for_load_state("domcontentloaded")
        nav = page.get_by_role("navigation", name="Principal")
        nav.get_by_role("button", name="Meniu").tap()
        expect(
            page.get_by_role("form", name="Limbă").get_by_role("button", name="Română")
        ).to_have_attribute("aria-current", "true")

        # Following links keeps the language: the cookie holds it.
        nav.get_by_role("link", name="Sala de joc").tap()
        expect(page).to_have_url(f"{live_server.url}/lobby/")
        expect(page.get_by_role("heading", name="Mese deschise")).to_be_visible()
        page.wait_for_load_state("domcontentloaded")
        page.get_by_role("button", name="Meniu").tap()
        page.get_by_role("link", name="Turnee").tap()
        expect(page.locator("html")).to_have_attribute("lang", "ro")
        expect(page.get_by_role("heading", name="Turnee", exact=True)).to_be_visible()
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "ro")
    finally:
        context.close()


def test_the_switcher_works_from_the_keyboard_and_returns_to_the_same_page(
    browser: Browser, live_server
):
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/lobby/")
        expect(page.get_by_role("heading", name="Open tables")).to_be_visible()
        magyar = page.get_by_role("button", name="Magyar")
        # Reached with Tab from the menu before it, like any other control.
        page.get_by_role("link", name="Sign up", exact=True).focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(magyar).to_be_focused()
        page.keyboard.press("Enter")
        expect(page).to_have_url(f"{live_server.url}/lobby/")
        expect(page.locator("html")).to_have_attribute("lang", "hu")
        expect(page.get_by_role("heading", name="Nyitott asztalok")).to_be_visible()
    finally:
        context.close()
