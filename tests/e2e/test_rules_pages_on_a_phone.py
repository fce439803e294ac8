"""A Romanian newcomer on a 375 px phone finds the rules from the lobby and reads each game's
page without scrolling sideways; the example melds are pictures with spoken names."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, page_width

pytestmark = pytest.mark.django_db(transaction=True)

TITLES = {
    "remi": "Cum se joacă Remi Etalat",
    "rummikub": "Cum se joacă Remi cu piese (stil Rummikub)",
    "basic-rummy": "Cum se joacă Remi simplu (cărți)",
    "thai-rummy": "Cum se joacă Remi thailandez (cărți)",
}


def test_a_newcomer_reads_every_rules_page_on_a_phone(visitor, asgi_site):
    page = visitor(**PHONE, locale="ro-RO")
    page.goto(f"{asgi_site.url}/lobby/")
    page.get_by_role("link", name="Cum se joacă fiecare joc").tap()
    expect(page).to_have_url(f"{asgi_site.url}/rules/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Cum se joacă")
    assert page_width(page) <= 375
    for key, title in TITLES.items():
        page.goto(f"{asgi_site.url}/rules/")
        page.locator(f'.rules-games a[href="/rules/{key}/"]').tap()
        expect(page).to_have_url(f"{asgi_site.url}/rules/{key}/")
        expect(page.get_by_role("heading", level=1)).to_have_text(title)
        assert page.locator(".rules-meld[role=img]").count() >= 2
        assert page_width(page) <= 375, key
    page.goto(f"{asgi_site.url}/rules/remi/")
    expect(page.get_by_role("img", name="roșu 5, roșu 6, roșu 7")).to_be_visible()
