"""The email choices on the profile page: "your turn" (the original checkbox), reminders and
the digest hour, saved together; a bad value is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from notifications.models import Preferences

pytestmark = pytest.mark.django_db


def test_the_profile_saves_every_email_choice(client, bob):
    client.force_login(bob)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'name="email_on_turn"' in page and 'name="notify-digest_hour"' in page
    assert not Preferences.objects.exists()  # looking at the page writes nothing

    response = client.post(
        reverse("accounts:profile"),
        {"email_on_turn": "on", "notify-reminder_email": "on", "notify-digest_hour": "7"},
    )
    assert response.status_code == 302
    bob.refresh_from_db()
    preferences = Preferences.objects.get(user=bob)
    assert (bob.email_on_turn, preferences.reminder_email, preferences.digest_hour) == (
        True,
        True,
        7,
    )

    client.post(reverse("accounts:profile"), {"notify-digest_hour": ""})
    preferences.refresh_from_db()
    assert (preferences.reminder_email, preferences.digest_hour) == (False, None)


@pytest.mark.parametrize("hour", ["24", "-1", "seven", "7.5", "\u0667"])
def test_a_bad_digest_hour_is_refused_and_nothing_changes(client, bob, hour):
    client.force_login(bob)
    response = client.post(
        reverse("accounts:profile"),
        {"display_name": "Changed", "notify-digest_hour": hour, "notify-reminder_email": "on"},
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""
    assert not Preferences.objects.exists()
