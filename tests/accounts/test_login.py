"""Logging in and out, and the limit on repeated failed logins."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
from django.urls import reverse

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many failed login attempts. Try again later."


def login(client, login: str, password: str):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def test_player_logs_in_with_username_or_email(client, alice, password):
    assert login(client, "alice", password).status_code == 302
    assert get_user(client).username == "alice"
    client.post(reverse("account_logout"))
    assert login(client, "alice@example.com", password).status_code == 302
    assert get_user(client).username == "alice"


def test_wrong_password_is_refused_without_saying_which_part_was_wrong(client, alice):
    response = login(client, "alice", "not-her-password")
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert not get_user(client).is_authenticated


def test_logout_is_a_post_and_ends_the_session(client, alice):
    client.force_login(alice)
    client.post(reverse("account_logout"))
    assert not get_user(client).is_authenticated
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_repeated_failed_logins_are_rate_limited_even_with_the_right_password(
    client, alice, password
):
    for _ in range(5):
        response = login(client, "alice", "guessing")
        assert TOO_MANY not in response.content.decode()
    response = login(client, "alice", "guessing")
    assert TOO_MANY in response.content.decode()
    response = login(client, "alice", password)
    assert TOO_MANY in response.content.decode()
    assert not get_user(client).is_authenticated


def test_failed_logins_for_one_account_do_not_lock_out_another(client, alice, bob, password):
    for _ in range(6):
        login(client, "alice", "guessing")
    assert login(client, "bob", password).status_code == 302
    assert get_user(client).username == "bob"
