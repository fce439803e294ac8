"""Fuzzing the login form and its failed-login limits (issue 27): strangers send hostile names,
passwords, form keys, client addresses and known-browser cookies (garbled ones, and bob's real
one), with time passing between their tries.

Properties for every input: never a 500 and nothing logged at ERROR; whatever the strangers
did, alice still logs in at once from her own browser, from any of the addresses they used.
"""

from __future__ import annotations

import itertools
import time

import pytest
import time_machine
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts import known_devices
from tests.conftest import PASSWORD
from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text

pytestmark = pytest.mark.django_db

ADDRESSES = [
    "198.51.100.7",  # alice's
    "2001:db8:1:2::1",  # another address of alice's IPv6 network
    "192.0.2.10",
    "203.0.113.66",
    "::1",
]
NAMES = ["alice", "ALICE", "alice@example.com", " alice ", "bob", "nobody", "x" * 200]


def latin1(text: str) -> bool:
    # A cookie reaches Django as header bytes: text outside Latin-1 never arrives.
    return all(ord(character) < 256 for character in text)


def browser_of(name: str, ip: str) -> Client:
    browser = Client()
    response = browser.post(
        reverse("account_login"), {"login": name, "password": PASSWORD}, REMOTE_ADDR=ip
    )
    assert response.status_code == 302
    browser.post(reverse("account_logout"))
    return browser


@pytest.fixture
def browsers(alice, bob) -> dict[str, Client]:
    return {"alice": browser_of("alice", ADDRESSES[0]), "bob": browser_of("bob", ADDRESSES[3])}


def mostly(common: st.SearchStrategy[str], rest: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``common`` three times in four: any_text is a choice among many strategies itself, and
    Hypothesis would otherwise pick ``common`` one time in eight (the limits would seldom be
    reached)."""
    return st.sampled_from([True, True, True, False]).flatmap(lambda c: common if c else rest)


attempt = st.fixed_dictionaries(
    {
        "login": mostly(st.sampled_from(NAMES), any_text),
        "password": mostly(st.just("guessing"), any_text.filter(lambda p: p != PASSWORD)),
        # Sometimes not an address at all: what a broken proxy header would give.
        "ip": mostly(st.sampled_from(ADDRESSES), st.sampled_from(["", "not-an-address"])),
        "cookie": mostly(
            st.sampled_from([None, None, "bob"]), any_text.filter(latin1).map(lambda t: t[:2000])
        ),
        "junk": st.dictionaries(any_text.filter(bool), any_text, max_size=2),
        "wait": st.sampled_from([0, 0, 1, 59, 60, 300, 3600]),
    }
)

# Each example's clock starts after the last one's: the counts in Redis persist between them,
# so the strangers' history only grows, and time must not run backwards over it.
_hours = itertools.count()
_start = time.time()


@fuzz_settings(200)
@given(attempts=st.lists(attempt, min_size=1, max_size=6), alices_ip=st.sampled_from(ADDRESSES))
def test_fuzz_the_login_form_and_alice_still_logs_in(
    browsers, error_log, count_input, attempts, alices_ip
):
    with time_machine.travel(_start + 3 * 3600 * next(_hours), tick=False) as clock:
        for one in attempts:
            count_input()
            clock.shift(one["wait"])
            stranger = Client()
            if one["cookie"] == "bob":
                cookie = browsers["bob"].cookies[known_devices.COOKIE_NAME].value
                stranger.cookies[known_devices.COOKIE_NAME] = cookie
            elif one["cookie"] is not None:
                stranger.cookies[known_devices.COOKIE_NAME] = one["cookie"]
            data = {**one["junk"], "login": one["login"], "password": one["password"]}
            response = stranger.post(reverse("account_login"), data, REMOTE_ADDR=one["ip"])
            assert response.status_code < 500, response.content[:500]
            assert error_log.take() == []
            if get_user(stranger).is_authenticated:
                assert get_user(stranger).username == "bob"  # with his own browser's cookie
        # A minute for the form's flood guard (per address, for everyone behind it) to pass.
        clock.shift(60)
        alice = browsers["alice"]
        response = alice.post(
            reverse("account_login"),
            {"login": "alice", "password": PASSWORD},
            REMOTE_ADDR=alices_ip,
        )
        assert response.status_code == 302, response.content[:2000]
        assert get_user(alice).username == "alice"
        alice.post(reverse("account_logout"))
        assert error_log.take() == []
