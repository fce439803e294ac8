"""Failed logins (issue 27): nobody can lock a player out of the browser they log in from, many
players behind one address are not locked out by one of them, and guessers are slowed down
more with every failure.

Every request here comes through the login form with a client address of its own; browsers
are Django test clients (each keeps its cookies, the known-browser cookie among them).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.contrib.auth import get_user
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

SHARED_IP = "192.0.2.10"  # a router or a proxy many players are behind
ALICES_IP = "198.51.100.7"
STRANGER_IPS = [f"203.0.113.{n}" for n in range(1, 6)]

PAIR_LOCK = "Too many failed logins for this account from your network."
ACCOUNT_LOCK = "Too many failed logins for this account. Wait"
ADDRESS_LOCK = "Too many failed logins from your network."
WRONG = "The username and/or password you specified are not correct."

KNOWN_BROWSER_COOKIE = "remi_device"  # accounts.known_devices
# On a bucket's edge, so the per-address window's minutes start where the test says.
START = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


def login(client: Client, name: str, password: str, ip: str) -> HttpResponse:
    return client.post(
        reverse("account_login"), {"login": name, "password": password}, REMOTE_ADDR=ip
    )


def logs_in(client: Client, name: str, password: str, ip: str) -> bool:
    response = login(client, name, password, ip)
    return response.status_code == 302 and get_user(client).is_authenticated


def known_browser(name: str, password: str, ip: str) -> Client:
    """A browser the player has logged in from before (and since logged out of)."""
    browser = Client()
    assert logs_in(browser, name, password, ip)
    browser.post(reverse("account_logout"))
    return browser


def text(response: HttpResponse) -> str:
    return response.content.decode()


def test_failed_logins_at_names_nobody_has_do_not_lock_out_players_behind_the_same_address(
    client, bob, password
):
    for number in range(30):
        response = login(Client(), f"nobody{number}", "guessing", SHARED_IP)
        assert WRONG in text(response)
    assert logs_in(client, "bob", password, SHARED_IP)


def test_a_stranger_on_the_players_network_cannot_lock_her_out_of_her_browser(alice, password):
    browser = known_browser("alice", password, SHARED_IP)
    stranger = Client()
    for _ in range(40):
        login(stranger, "alice", "guessing", SHARED_IP)
    assert PAIR_LOCK in text(login(stranger, "alice", password, SHARED_IP))
    # A browser she never used, on that network, is locked out with the stranger...
    assert PAIR_LOCK in text(login(Client(), "alice", password, SHARED_IP))
    # ...hers is not.
    assert logs_in(browser, "alice", password, SHARED_IP)
    assert get_user(browser).username == "alice"


def test_a_stranger_guessing_from_many_addresses_locks_only_browsers_the_player_never_used(
    alice, password
):
    browser = known_browser("alice", password, ALICES_IP)
    for ip in STRANGER_IPS:
        for _ in range(5):
            login(Client(), "alice", "guessing", ip)
    # 20 failures at the account from anywhere: a new browser is refused, wherever it is.
    response = login(Client(), "alice", password, "192.0.2.99")
    assert ACCOUNT_LOCK in text(response)
    assert "log in from a browser you have logged in from before" in text(response)
    # Her own browser gets in, from home or anywhere else.
    assert logs_in(browser, "alice", password, ALICES_IP)
    browser.post(reverse("account_logout"))
    assert logs_in(browser, "alice", password, "192.0.2.200")


def test_each_failure_after_the_free_ones_doubles_the_lock_for_that_address_and_account(
    client, alice, password
):
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(5):
            assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))
        # The sixth try is refused before the password is looked at, the right one too...
        assert PAIR_LOCK in text(login(client, "alice", password, ALICES_IP))
        assert not get_user(client).is_authenticated
        clock.shift(59)
        assert PAIR_LOCK in text(login(client, "alice", password, ALICES_IP))
        # ...for a minute. Then one more wrong password locks for twice as long, and so on.
        for lock in (60, 120, 240):
            clock.shift(1)
            assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))
            assert PAIR_LOCK in text(login(client, "alice", password, ALICES_IP))
            clock.shift(2 * lock - 1)
            assert PAIR_LOCK in text(login(client, "alice", password, ALICES_IP))
        clock.shift(1)
        assert logs_in(client, "alice", password, ALICES_IP)
        # A right password starts the address's count afresh: five free failures again (in
        # another browser: this one is known to alice now, and counted apart).
        other = Client()
        for _ in range(5):
            assert WRONG in text(login(other, "alice", "guessing", ALICES_IP))
        assert PAIR_LOCK in text(login(other, "alice", password, ALICES_IP))


def test_a_refusal_says_how_long_to_wait(client, alice, password):
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(5):
            login(client, "alice", "guessing", ALICES_IP)
        response = login(client, "alice", password, ALICES_IP)
        assert f"{PAIR_LOCK} Wait 1 minute and try again, or reset your password." in text(response)
        clock.shift(59)
        assert "Wait 1 second and try again" in text(login(client, "alice", password, ALICES_IP))
        clock.shift(1)
        login(client, "alice", "guessing", ALICES_IP)
        clock.shift(1)
        assert "Wait 2 minutes and try again" in text(login(client, "alice", password, ALICES_IP))


def test_the_lock_never_grows_past_its_longest(client, alice, password, settings):
    settings.LOGIN_LOCK_MAX_SECONDS = 300
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(5):
            login(client, "alice", "guessing", ALICES_IP)
        for lock in (60, 120, 240, 300, 300):
            assert f"Wait {lock // 60} minute" in text(login(client, "alice", password, ALICES_IP))
            clock.shift(lock)
            assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))


def test_a_day_without_failures_forgets_them(client, alice, password):
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(5):
            login(client, "alice", "guessing", ALICES_IP)
        clock.shift(24 * 3600)
        # Five free failures again, not a lock twice as long after the first.
        for _ in range(5):
            assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))
        assert "Wait 1 minute" in text(login(client, "alice", password, ALICES_IP))


def test_an_hour_without_failures_forgets_those_that_have_not_locked(client, alice, password):
    with time_machine.travel(START, tick=False) as clock:
        for _ in range(4):
            login(client, "alice", "guessing", ALICES_IP)
        clock.shift(3600)
        for _ in range(5):
            assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))
        assert PAIR_LOCK in text(login(client, "alice", password, ALICES_IP))
        # Once locked, an hour is not enough: the next failure doubles the lock.
        clock.shift(3600)
        assert WRONG in text(login(client, "alice", "guessing", ALICES_IP))
        assert "Wait 2 minutes" in text(login(client, "alice", password, ALICES_IP))


def test_guessing_at_many_names_from_one_address_meets_a_generous_ceiling(alice, bob, password):
    with time_machine.travel(START, tick=False) as clock:
        browser = known_browser("alice", password, SHARED_IP)
        # Half a minute's worth under the login form's flood guard (60 posts a minute).
        for number in range(50):
            login(Client(), f"player{number}", "guessing", SHARED_IP)
        clock.shift(60)
        for number in range(50, 99):
            login(Client(), f"player{number}", "guessing", SHARED_IP)
        assert logs_in(Client(), "bob", password, SHARED_IP)  # the 100th try was right
        client = Client()
        assert WRONG in text(login(client, "bob", "guessing", SHARED_IP))
        response = login(client, "bob", password, SHARED_IP)
        # The first 50 leave the ten-minute window at 12:10.
        assert f"{ADDRESS_LOCK} Wait 9 minutes and try again." in text(response)
        assert not get_user(client).is_authenticated
        # Elsewhere bob is not affected, and a browser that knows its account is not either.
        assert logs_in(Client(), "bob", password, ALICES_IP)
        assert logs_in(browser, "alice", password, SHARED_IP)
        clock.shift(9 * 60)
        assert logs_in(client, "bob", password, SHARED_IP)


def test_a_known_browser_is_known_to_its_own_accounts_only(alice, bob, password):
    # bob's browser knows bob, not alice: guessing at alice from it is a stranger's guessing.
    browser = known_browser("bob", password, SHARED_IP)
    for _ in range(5):
        login(browser, "alice", "guessing", SHARED_IP)
    assert PAIR_LOCK in text(login(browser, "alice", password, SHARED_IP))
    assert logs_in(browser, "bob", password, SHARED_IP)


def test_a_known_browser_guessing_wrongly_is_locked_out_by_itself(alice, password):
    browser = known_browser("alice", password, ALICES_IP)
    for _ in range(5):
        login(browser, "alice", "guessing", ALICES_IP)
    response = login(browser, "alice", password, ALICES_IP)
    assert "Too many failed logins for this account from this browser." in text(response)
    # Another browser at the same address is someone else.
    assert logs_in(Client(), "alice", password, ALICES_IP)


def test_a_forged_or_garbled_known_browser_cookie_is_a_strangers_browser(alice, password):
    browser = known_browser("alice", password, ALICES_IP)
    signed = browser.cookies[KNOWN_BROWSER_COOKIE].value
    for forged in (
        signed[:-3] + "abc",
        "",
        "x" * 5000,
        "\u00e9t\u00e9:a:b",
        signed.replace(":", "", 1),
    ):
        stranger = Client()
        stranger.cookies[KNOWN_BROWSER_COOKIE] = forged
        for _ in range(5):
            login(stranger, "alice", "guessing", SHARED_IP)
        assert PAIR_LOCK in text(login(stranger, "alice", password, SHARED_IP))
    assert logs_in(browser, "alice", password, SHARED_IP)


def test_the_names_of_one_account_share_its_count(client, alice, password):
    for name in ("alice", "ALICE", "alice@example.com", "Alice@Example.com", "alice"):
        login(client, name, "guessing", ALICES_IP)
    assert PAIR_LOCK in text(login(client, "alice@example.com", password, ALICES_IP))


def test_a_password_reset_lifts_the_account_lock_for_the_browser_that_made_it(
    alice, password, mailoutbox
):
    for ip in STRANGER_IPS:
        for _ in range(5):
            login(Client(), "alice", "guessing", ip)
    phone = Client()
    assert ACCOUNT_LOCK in text(login(phone, "alice", password, ALICES_IP))
    phone.post(
        reverse("account_reset_password"), {"email": "alice@example.com"}, REMOTE_ADDR=ALICES_IP
    )
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mailoutbox[0].body)
    form_page = phone.get(link.group(1), follow=True, REMOTE_ADDR=ALICES_IP)
    new_password = "seven-tiles-and-a-joker"
    phone.post(
        form_page.redirect_chain[-1][0],
        {"password1": new_password, "password2": new_password},
        REMOTE_ADDR=ALICES_IP,
    )
    assert logs_in(phone, "alice", new_password, ALICES_IP)


def test_the_wait_is_told_in_the_players_language(client, alice, password):
    for _ in range(5):
        login(client, "alice", "guessing", ALICES_IP)
    response = client.post(
        reverse("account_login"),
        {"login": "alice", "password": password},
        REMOTE_ADDR=ALICES_IP,
        HTTP_ACCEPT_LANGUAGE="ro",
    )
    assert "Așteaptă 1 minut și încearcă din nou sau resetează-ți parola." in text(response)
