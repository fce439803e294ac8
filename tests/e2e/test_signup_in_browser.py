"""Acceptance 3: a person signs up, logs out, logs back in and sees their profile."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "rummy-night-with-jokers"


def test_new_player_signs_up_logs_out_logs_back_in_and_sees_the_profile(page: Page, live_server):
    page.goto(live_server.url)
    page.get_by_role("link", name="Create an account").click()
    expect(page).to_have_title(re.compile("Sign"))

    page.get_by_label("Username").fill("dana")
    page.get_by_label("Email").fill("dana@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()

    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()
    assert User.objects.filter(username="dana").exists()

    nav.get_by_role("button", name="Log out").click()
    expect(nav.get_by_role("link", name="Log in")).to_be_visible()
    expect(nav.get_by_role("link", name="Profile")).to_have_count(0)

    nav.get_by_role("link", name="Log in").click()
    page.get_by_label("Username or email").fill("dana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In").click()
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()

    nav.get_by_role("link", name="Profile").click()
    expect(page.get_by_role("heading", name="Profile", level=1)).to_be_visible()
    expect(page.get_by_text("dana@example.com")).to_be_visible()
    page.get_by_label("Display name").fill("Dana")
    page.get_by_role("button", name="Save profile").click()
    expect(page.get_by_role("status")).to_contain_text("Your profile was saved.")
