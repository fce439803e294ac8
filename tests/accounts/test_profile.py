"""The profile page: display name, preferred language, turn emails."""

from __future__ import annotations

import re

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


def test_player_chooses_turn_signals_and_card_colours(client, bob):
    client.force_login(bob)
    response = client.post(
        reverse("accounts:profile"),
        {"turn_sound": "on", "turn_notification": "on", "card_colours": "two"},
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    assert (bob.turn_sound, bob.turn_notification, bob.card_colours) == (True, True, "two")
    # Every page carries the choices for static/js/turn-signal.js and cards.css.
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'class="cards-two"' in html
    assert 'data-turn-sound="on"' in html and 'data-turn-notification="on"' in html
    assert "js/turn-signal.js" in html


def test_new_players_get_four_colours_and_no_sound(client, carol):
    client.force_login(carol)
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'class="cards-four"' in html and 'data-turn-sound="off"' in html


def test_an_unknown_card_colour_is_refused_and_changes_nothing(client, bob):
    client.force_login(bob)
    response = client.post(reverse("accounts:profile"), {"card_colours": "rainbow"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    bob.refresh_from_db()
    assert bob.card_colours == "four"


def test_a_form_without_the_zone_or_colours_keeps_them(client, bob):
    bob.time_zone = "Europe/Budapest"
    bob.card_colours = "two"
    bob.save()
    client.force_login(bob)
    assert client.post(reverse("accounts:profile"), {"display_name": "B"}).status_code == 302
    bob.refresh_from_db()
    assert (bob.time_zone, bob.card_colours) == ("Europe/Budapest", "two")


def test_anonymous_pages_carry_no_turn_signals(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "favicon.svg" in html
    assert "turn-signal.js" not in html and "data-turn-sound" not in html


def test_the_zone_box_suggests_common_zones_first_and_no_clutter(client, bob):
    """Issue 30, fault 9: ~600 raw names ("Factory", "localtime", "W-SU") in a list."""
    client.force_login(bob)
    html = client.get(reverse("accounts:profile")).content.decode()
    box = re.search(r'<input[^>]* name="time_zone"[^>]*>', html)
    assert box and 'list="time-zone-list"' in box.group(0)
    listed = re.findall(r'<option value="([^"]+)"></option>', html.split("time-zone-list")[2])
    assert listed[:3] == ["Europe/Bucharest", "Europe/Chisinau", "Europe/Budapest"]
    assert "America/New_York" in listed and "Asia/Tokyo" in listed
    assert not {"Factory", "localtime", "W-SU", "US/Eastern", "Etc/GMT+3"} & set(listed)


def test_a_zone_is_typed_and_an_unknown_one_refused(client, bob):
    client.force_login(bob)
    fields = {"display_name": "B", "time_zone": "Europe/Chisinau"}
    assert client.post(reverse("accounts:profile"), fields).status_code == 302
    bob.refresh_from_db()
    assert bob.time_zone == "Europe/Chisinau"
    refused = client.post(reverse("accounts:profile"), {**fields, "time_zone": "Mars/Olympus"})
    assert refused.status_code == 200
    assert "is not a time zone name such as Europe/Bucharest" in refused.content.decode()
    bob.refresh_from_db()
    assert bob.time_zone == "Europe/Chisinau"
