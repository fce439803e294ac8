"""One-click unsubscribe: a signed link per kind of email, a confirm page on GET, the change
on POST (also the RFC 8058 POST of a mail client: no login, no CSRF token)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from notifications.kinds import Kind
from notifications.models import Preferences
from notifications.unsubscribe_tokens import make_token
from tests.notifications.conftest import opt_in

pytestmark = pytest.mark.django_db


def url(user, kind) -> str:
    return reverse("notifications:unsubscribe", args=[make_token(user.pk, kind)])


def choices(user) -> tuple[bool, bool, int | None]:
    user.refresh_from_db()
    preferences = Preferences.objects.get(user=user)
    return user.email_on_turn, preferences.reminder_email, preferences.digest_hour


@pytest.fixture
def bob_wants_everything(bob):
    opt_in(bob, reminder_email=True, digest_hour=8)
    return bob


def test_get_only_asks_and_post_turns_off_that_kind_alone(client, bob_wants_everything):
    bob = bob_wants_everything
    page = client.get(url(bob, Kind.REMINDER))
    assert page.status_code == 200
    assert "Time running out" in page.content.decode()
    assert choices(bob) == (True, True, 8)  # a mail scanner following the link changes nothing

    done = client.post(url(bob, Kind.REMINDER))
    assert done.status_code == 200
    assert choices(bob) == (True, False, 8)
    client.post(url(bob, Kind.DIGEST))
    assert choices(bob) == (True, False, None)
    client.post(url(bob, Kind.TURN))
    assert choices(bob) == (False, False, None)


def test_the_one_click_post_needs_no_login_and_no_csrf_token(bob_wants_everything):
    bob = bob_wants_everything
    mail_client = Client(enforce_csrf_checks=True)
    response = mail_client.post(
        url(bob, Kind.TURN),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert choices(bob) == (False, True, 8)


def test_csrf_is_still_enforced_elsewhere(bob_wants_everything):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(bob_wants_everything)
    response = strict.post(reverse("accounts:profile"), {"display_name": "x"})
    assert response.status_code == 403


@pytest.mark.parametrize(
    "token",
    [
        "garbage",
        "",  # no token at all: not even the route
        "tampered",
        "other-salt",
        "unknown-kind",
        "unknown-user",
    ],
)
def test_a_forged_or_garbled_token_is_a_clear_400_and_changes_nothing(
    client, bob_wants_everything, token
):
    bob = bob_wants_everything
    from django.core import signing

    good = make_token(bob.pk, Kind.DIGEST)
    tokens = {
        "garbage": "%20%E2%98%83not-a-token",
        "": "",
        "tampered": good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB"),
        "other-salt": signing.dumps({"u": bob.pk, "k": "digest"}, salt="something.else"),
        "unknown-kind": signing.dumps({"u": bob.pk, "k": "all"}, salt="notifications.unsubscribe"),
        "unknown-user": make_token(bob.pk + 1000, Kind.DIGEST),
    }
    path = f"/notifications/unsubscribe/{tokens[token]}/"
    for method in (client.get, client.post):
        response = method(path)
        if token == "":
            assert response.status_code == 404
            continue
        assert response.status_code == 400
        assert "This link does not work" in response.content.decode()
    assert choices(bob) == (True, True, 8)
