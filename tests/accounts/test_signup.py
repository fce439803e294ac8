"""Signing up: a new player gets an account and is logged in; bad input gets clear errors."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def signup(client, **overrides):
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "green-joker-on-13",
        "password2": "green-joker-on-13",
        **overrides,
    }
    return client.post(reverse("account_signup"), data)


def test_signup_creates_the_player_logs_them_in_and_sends_a_confirmation(client, mailoutbox):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="dana")
    assert user.email == "dana@example.com"
    assert user.check_password("green-joker-on-13")
    assert client.get(reverse("accounts:profile")).status_code == 200
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["dana@example.com"]
    assert "/accounts/confirm-email/" in mailoutbox[0].body


def test_signup_form_has_visible_labels_for_every_field(client):
    html = client.get(reverse("account_signup")).content.decode()
    for field in ("username", "email", "password1", "password2"):
        assert f'<label for="id_{field}"' in html


def test_taken_username_is_refused_with_a_clear_error(client, alice):
    response = signup(client, username="alice")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username="alice").count() == 1


def test_mismatched_passwords_are_refused(client):
    response = signup(client, password2="green-joker-on-12")
    assert response.status_code == 200
    assert "You must type the same password each time." in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("password", "This password is too common."),
        ("r7k2", "This password is too short. It must contain at least 8 characters."),
        ("83749261035", "This password is entirely numeric."),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(client, password, message):
    response = signup(client, password1=password, password2=password)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


def test_bad_email_is_refused_and_the_field_is_marked_invalid(client):
    response = signup(client, email="dana-at-example")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter a valid email address." in html
    assert 'aria-invalid="true"' in html
    assert 'aria-describedby="id_email_error"' in html
    assert not User.objects.filter(username="dana").exists()


def test_signups_from_one_address_are_limited_to_twenty_a_minute(client):
    # Posts with a bad email create nobody but still count against the limit.
    for _ in range(20):
        assert signup(client, email="not-an-email").status_code == 200
    response = signup(client)
    assert response.status_code == 429
    assert not User.objects.filter(username="dana").exists()


def test_a_brand_new_account_is_welcomed_not_welcomed_back(client):
    """Issue 13, fault 6: the home page said "Welcome back" to someone who had just signed up."""
    response = signup(client)
    assert response.status_code == 302
    home = client.get(response["Location"]).content.decode()
    assert "Welcome back" not in home
    assert "Welcome to Remi, dana!" in home
    # The next visit, after logging in again, is a return.
    client.logout()
    client.post(reverse("account_login"), {"login": "dana", "password": "green-joker-on-13"})
    assert "Welcome back, dana." in client.get("/").content.decode()
