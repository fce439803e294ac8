"""The base page: navigation, messages, htmx from static/, the CSRF header on <body>."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from games.game_names import game_choices

pytestmark = pytest.mark.django_db


def test_home_page_for_a_visitor_links_to_login_and_signup(client):
    html = client.get("/").content.decode()
    assert f'href="{reverse("account_login")}"' in html
    assert f'href="{reverse("account_signup")}"' in html
    assert f'href="{reverse("games:lobby")}"' in html
    assert reverse("accounts:profile") not in html
    # Every game the site hosts is named, with its rules (it named Remi Etalat alone).
    for key, label in game_choices():
        assert f'<a href="{reverse("games:rules_game", args=[key])}">{label}</a>' in html


def test_home_page_for_a_player_links_to_games_profile_and_logout(client, alice):
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert f'href="{reverse("games:my_games")}"' in html
    assert f'href="{reverse("accounts:profile")}"' in html
    assert f'action="{reverse("account_logout")}"' in html
    assert "Welcome back, Alice." in html


def test_body_carries_the_csrf_token_as_an_htmx_header(client):
    response = client.get("/")
    match = re.search(
        r"<body hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", response.content.decode()
    )
    assert match
    assert len(match.group(1)) >= 32


def test_htmx_and_its_websocket_extension_are_served_from_static(client):
    html = client.get("/").content.decode()
    for asset in ("vendor/htmx/htmx.min.js", "vendor/htmx/ext-ws.min.js"):
        assert f'src="/static/{asset}"' in html
        path = finders.find(asset)
        assert path
        source = Path(path).read_text(encoding="utf-8")
        assert "htmx" in source
    assert "//unpkg.com" not in html
    assert "cdn" not in html.lower()


def test_vendored_htmx_is_version_2():
    source = Path(finders.find("vendor/htmx/htmx.min.js")).read_text(encoding="utf-8")
    assert re.search(r'version:"2\.\d+\.\d+"', source)


def test_messages_are_shown_after_a_redirect(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Ali", "preferred_language": "en"},
        follow=True,
    )
    assert '<ul class="messages" role="status">' in response.content.decode()
    assert "Your profile was saved." in response.content.decode()


def test_admin_login_page_loads(client):
    response = client.get("/admin/", follow=True)
    assert response.status_code == 200
    assert b"Django administration" in response.content


def test_my_games_needs_a_login_and_lobby_does_not(client):
    assert client.get(reverse("games:lobby")).status_code == 200
    response = client.get(reverse("games:my_games"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("path", ["/", "/lobby/", "/tournaments/", "/rules/", "/accounts/login/"])
def test_every_page_describes_the_site_for_search_engines_in_its_language(client, path):
    description = re.compile(r'<meta name="description" content="([^"]{50,})">')
    found = description.search(client.get(path).content.decode())
    assert found and "Remi Etalat" in found.group(1)
    client.cookies["django_language"] = "ro"
    found_ro = description.search(client.get(path).content.decode())
    assert found_ro and found_ro.group(1) != found.group(1)


def test_favicon_ico_leads_to_the_site_icon(client):
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's): no 404.
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)
