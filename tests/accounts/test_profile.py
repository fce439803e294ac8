"""The profile page: display name, preferred language, turn emails."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_profile_needs_a_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_profile_shows_the_account_and_its_settings(client, alice):
    client.force_login(alice)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "alice@example.com" in html
    assert 'value="Alice"' in html
    assert '<label for="id_email_on_turn">' in html


def test_player_saves_display_name_language_and_turn_emails(client, bob):
    client.force_login(bob)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Bobiță", "preferred_language": "ro", "email_on_turn": "on"},
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.display_name, bob.preferred_language, bob.email_on_turn) == ("Bobiță", "ro", True)
    assert bob.public_name == "Bobiță"


def test_preferred_language_is_used_once_logged_in(client, carol):
    carol.preferred_language = "ro"
    carol.save()
    client.force_login(carol)
    response = client.get(reverse("account_change_password"))
    assert response["Content-Language"] == "ro"
    assert '<html lang="ro">' in response.content.decode()
    assert "Schimba parola" in response.content.decode()  # allauth's own Romanian text


def test_display_name_is_optional_and_the_username_stands_in(client, carol):
    client.force_login(carol)
    client.post(reverse("accounts:profile"), {"display_name": "", "preferred_language": ""})
    carol.refresh_from_db()
    assert carol.public_name == "carol"
