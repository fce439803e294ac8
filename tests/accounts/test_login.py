"""Logging in and out, and the limit on repeated failed logins (more in test_login_limits)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user
from django.urls import reverse

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many failed logins for this account from your network."
ATTACKER_IP = "203.0.113.66"
ALICES_IP = "198.51.100.7"


def login(client, login: str, password: str, *, ip: str = "127.0.0.1"):
    return client.post(
        reverse("account_login"), {"login": login, "password": password}, REMOTE_ADDR=ip
    )


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


def test_repeated_failed_logins_are_refused_even_with_the_right_password(client, alice, password):
    for _ in range(5):
        response = login(client, "alice", "guessing", ip=ATTACKER_IP)
        assert TOO_MANY not in response.content.decode()
    response = login(client, "alice", "guessing", ip=ATTACKER_IP)
    assert TOO_MANY in response.content.decode()
    # The message says what to do and for how long, not only what went wrong.
    assert "Wait 1 minute and try again, or reset your password." in response.content.decode()
    response = login(client, "alice", password, ip=ATTACKER_IP)
    assert TOO_MANY in response.content.decode()
    assert not get_user(client).is_authenticated


def test_a_stranger_hammering_an_account_does_not_lock_its_owner_out(client, alice, password):
    for _ in range(40):
        assert login(client, "alice", "guessing", ip=ATTACKER_IP).status_code == 200
    assert login(client, "alice", password, ip=ALICES_IP).status_code == 302
    assert get_user(client).username == "alice"


def test_someone_else_on_the_attackers_network_still_logs_in(client, alice, bob, password):
    for _ in range(40):
        login(client, "alice", "guessing", ip=ATTACKER_IP)
    assert login(client, "bob", password, ip=ATTACKER_IP).status_code == 302
    assert get_user(client).username == "bob"


def test_failed_logins_for_one_account_do_not_lock_out_another(client, alice, bob, password):
    for _ in range(6):
        login(client, "alice", "guessing")
    assert login(client, "bob", password).status_code == 302
    assert get_user(client).username == "bob"


def test_a_flood_of_login_posts_gets_too_many_requests_with_a_page_that_says_wait(client, alice):
    for _ in range(60):
        assert login(client, "alice", "guessing", ip=ATTACKER_IP).status_code == 200
    response = login(client, "alice", "guessing", ip=ATTACKER_IP)
    assert response.status_code == 429
    assert "Wait a minute, then try again." in response.content.decode()
    assert login(client, "alice", "guessing", ip=ALICES_IP).status_code == 200


def test_hopping_between_addresses_of_one_ipv6_network_buys_no_extra_guesses(client, alice):
    for host in range(1, 6):
        login(client, "alice", "guessing", ip=f"2001:db8:1:2::{host}")
    response = login(client, "alice", "guessing", ip="2001:db8:1:2::99")
    assert TOO_MANY in response.content.decode()
    # Another network is someone else.
    response = login(client, "alice", "guessing", ip="2001:db8:1:3::1")
    assert TOO_MANY not in response.content.decode()


def test_an_overlong_login_name_is_refused_by_the_form_before_any_lookup(client, alice):
    response = login(client, "ab" * 30_000, "guessing")
    assert response.status_code == 200
    assert "Ensure this value has at most 254 characters" in response.content.decode()
