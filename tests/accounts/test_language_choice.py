"""Choosing the site's language: the switcher on every page, the cookie, the profile, login."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    match = re.search(r'<html lang="([\w-]+)">', response.content.decode())
    assert match, response.content[:300]
    return match[1]


def switcher_buttons(page: str) -> list[tuple[str, str, bool]]:
    """(value, name, current) of each button of the switcher."""
    form = re.search(r'<form [^>]*class="language-switcher".*?</form>', page, flags=re.S)
    assert form
    return [
        (value, name, current is not None and current != "")
        for value, current, name in re.findall(
            r'<button type="submit" name="language" value="(\w+)" lang="\w+"'
            r'( aria-current="true")?>([^<]+)</button>',
            form[0],
        )
    ]


@pytest.mark.parametrize("url", ["/", "/lobby/", "/tournaments/", "/accounts/login/", "/nowhere/"])
def test_every_page_offers_the_three_languages_each_in_its_own_words(client, url):
    buttons = switcher_buttons(client.get(url).content.decode())
    assert buttons == [("en", "English", True), ("ro", "Română", False), ("hu", "Magyar", False)]


def test_a_visitor_switches_and_the_cookie_keeps_the_choice(client):
    response = client.post(reverse("set_language"), {"language": "ro", "next": "/lobby/"})
    assert response.status_code == 302
    assert response["Location"] == "/lobby/"
    assert response.cookies[COOKIE].value == "ro"
    lobby = client.get("/lobby/")
    assert lang_of(lobby) == "ro"
    assert "Mese deschise" in lobby.content.decode()
    # The cookie outranks the browser's own languages, and holds on every page.
    assert lang_of(client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="hu,en")) == "ro"
    buttons = switcher_buttons(client.get("/").content.decode())
    # Each language keeps its own name whatever the page's language.
    assert buttons == [("en", "English", False), ("ro", "Română", True), ("hu", "Magyar", False)]


def test_an_unknown_language_or_a_foreign_next_changes_nothing_harmful(client):
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/lobby/"})
    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert lang_of(client.get("/")) == "en"
    away = client.post(reverse("set_language"), {"language": "hu", "next": "https://evil.example/"})
    assert away["Location"] == "/"


def test_switching_needs_a_post(client):
    assert client.get(reverse("set_language"), {"language": "ro"}).status_code == 405


def test_a_player_who_switches_has_the_choice_saved_on_the_profile(client, alice):
    client.force_login(alice)
    client.post(reverse("set_language"), {"language": "hu", "next": "/"})
    alice.refresh_from_db()
    assert alice.preferred_language == "hu"
    # Another browser, no cookie, a Romanian browser: the profile decides once logged in.
    other = Client()
    other.force_login(alice)
    page = other.get("/", HTTP_ACCEPT_LANGUAGE="ro")
    assert lang_of(page) == "hu"
    assert "Üdv újra, Alice." in page.content.decode()


def test_logging_in_applies_the_profile_language_and_keeps_it_after_logging_out(
    client, alice, password
):
    alice.preferred_language = "ro"
    alice.save()
    assert lang_of(client.get("/")) == "en"
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": password}, follow=True
    )
    assert lang_of(response) == "ro"
    assert client.cookies[COOKIE].value == "ro"
    client.post(reverse("account_logout"))
    assert lang_of(client.get("/")) == "ro"


def test_a_player_without_a_choice_follows_the_browser(client, bob):
    client.force_login(bob)
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9")) == "hu"
    assert lang_of(client.get("/", HTTP_ACCEPT_LANGUAGE="ro-RO")) == "ro"
    assert lang_of(client.get("/")) == "en"


def test_the_profile_offers_hungarian(client, bob):
    client.force_login(bob)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert '<option value="hu">Magyar</option>' in page
    client.post(reverse("accounts:profile"), {"preferred_language": "hu"})
    bob.refresh_from_db()
    assert bob.preferred_language == "hu"
