"""Password reset by email, and changing the password while logged in."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "seven-tiles-and-a-joker"


def test_password_reset_email_link_lets_the_player_choose_a_new_password(client, alice, mailoutbox):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject.startswith("[Remi] ")
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", message.body)
    assert link

    # allauth moves the key from the URL into the session, then shows the form.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    assert 'name="password1"' in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0] if form_page.redirect_chain else link.group(1),
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)

    client.post(reverse("account_login"), {"login": "alice", "password": NEW_PASSWORD})
    assert get_user(client).username == "alice"


def test_a_used_reset_link_does_not_work_twice(client, alice, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    path = re.search(r"(/accounts/password/reset/key/\S+)", mailoutbox[0].body).group(1)
    form_page = client.get(path, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    again = client.get(path, follow=True)
    assert "Bad Token" in again.content.decode()


def test_reset_for_an_unknown_email_reveals_nothing_on_the_page(client, mailoutbox):
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert not User.objects.filter(email="nobody@example.com").exists()


def test_logged_in_player_changes_password(client, alice, password):
    client.force_login(alice)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
