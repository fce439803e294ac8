"""The failed-login counts (accounts.login_limits) and the known-browser cookie
(accounts.known_devices) below the login form: what the form's tests cannot show one by one.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client, RequestFactory
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts import known_devices, login_limits

pytestmark = pytest.mark.django_db

ALICES_IP = "198.51.100.7"
START = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


def device_of(browser: Client) -> known_devices.Device | None:
    request = RequestFactory().get("/")
    request.COOKIES = {known_devices.COOKIE_NAME: browser.cookies[known_devices.COOKIE_NAME].value}
    return known_devices.read(request)


def test_the_known_browser_cookie_is_signed_http_only_and_kept_a_year(alice, password):
    browser = Client()
    browser.post(reverse("account_login"), {"login": "alice", "password": password})
    cookie = browser.cookies[known_devices.COOKIE_NAME]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == known_devices.MAX_AGE_SECONDS == 365 * 24 * 3600
    assert device_of(browser).accounts == (alice.pk,)


def test_a_browser_keeps_its_id_and_remembers_its_accounts_newest_first(alice, bob, password):
    browser = Client()
    ids = []
    for name in ("alice", "bob", "alice"):
        browser.post(reverse("account_login"), {"login": name, "password": password})
        browser.post(reverse("account_logout"))
        ids.append(device_of(browser).id)
    assert len(set(ids)) == 1
    assert device_of(browser).accounts == (alice.pk, bob.pk)


def test_an_attempt_counts_before_its_password_is_checked(alice):
    # Guesses sent in parallel: five are under way, none has failed yet, and a sixth is
    # refused already (a count taken after each failure would let all of them through).
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=ALICES_IP)
    credentials = {"username": "alice", "password": "guessing"}
    with time_machine.travel(START, tick=False):
        for _ in range(5):
            assert isinstance(login_limits.start(request, credentials), login_limits.Attempt)
        refusal = login_limits.start(request, credentials)
    assert refusal == login_limits.Refusal("address_and_account", 60)


def test_a_right_password_gives_back_its_attempt_to_the_shared_counts(alice, settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT = 2
    settings.LOGIN_FAILURES_PER_ADDRESS = 2
    credentials = {"username": "alice", "password": "guessing"}
    with time_machine.travel(START, tick=False):
        for host in range(1, 4):
            request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=f"192.0.2.{host}")
            # Each right password in turn: without the give-back the third would be refused.
            attempt = login_limits.start(request, credentials)
            assert isinstance(attempt, login_limits.Attempt)
            attempt.succeeded()
        request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="192.0.2.9")
        login_limits.start(request, credentials)
        login_limits.start(request, credentials)
        refusal = login_limits.start(request, credentials)
    assert refusal.reason == "account"


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (1, "1 second"),
        (59, "59 seconds"),
        (60, "1 minute"),
        (61, "2 minutes"),
        (3600, "60 minutes"),
    ],
)
def test_the_wait_is_said_in_seconds_then_whole_minutes_rounded_up(seconds, words):
    assert login_limits.wait_words(seconds) == words


def test_lock_seconds_double_from_the_first_lock_to_the_longest():
    rule = login_limits.BackOff(free=5, first_lock=60, longest_lock=3600)
    assert [rule.lock_seconds(n) for n in range(4, 13)] == [
        0, 60, 120, 240, 480, 960, 1920, 3600, 3600,
    ]  # fmt: skip
    assert rule.lock_seconds(10**9) == 3600


@given(
    free=st.integers(min_value=1, max_value=50),
    first=st.integers(min_value=1, max_value=3600),
    longest=st.integers(min_value=1, max_value=10**6),
    failures=st.integers(min_value=0, max_value=10**6),
)
def test_a_lock_never_shrinks_with_more_failures_and_never_passes_the_longest(
    free, first, longest, failures
):
    rule = login_limits.BackOff(free=free, first_lock=first, longest_lock=max(first, longest))
    now, then = rule.lock_seconds(failures), rule.lock_seconds(failures + 1)
    assert 0 <= now <= then <= rule.longest_lock
    assert (now == 0) == (failures < free)


@given(
    free=st.integers(min_value=1, max_value=50),
    first=st.integers(min_value=1, max_value=3600),
    longest=st.integers(min_value=1, max_value=10**7),
    beyond=st.integers(min_value=0, max_value=10**4),
)
def test_the_schedule_the_redis_script_reads_is_the_lock_for_every_count(
    free, first, longest, beyond
):
    rule = login_limits.BackOff(free=free, first_lock=first, longest_lock=max(first, longest))
    schedule = rule.schedule()
    assert schedule[-1] == rule.longest_lock
    assert schedule[min(beyond, len(schedule) - 1)] == rule.lock_seconds(free + beyond)
