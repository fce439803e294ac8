"""The emails through Django's real SMTP backend to a real SMTP server (aiosmtpd on a free
local port): what a mail server receives, and a send that fails and is retried, once."""

from __future__ import annotations

import pytest
from django.test import override_settings

from notifications.kinds import Kind
from notifications.models import Notice
from notifications.tasks import send_turn_email
from tests.notifications.conftest import opt_in, start_game, until_turn_of
from tests.site_processes import free_port
from tests.smtp_sink import SMTP_BACKEND, parts_of

pytestmark = pytest.mark.django_db


def test_a_turn_email_reaches_a_real_smtp_server_and_a_failed_send_is_retried_once(
    alice, bob, smtp_sink, django_capture_on_commit_callbacks
):
    inbox, port = smtp_sink, smtp_sink.port
    opt_in(bob)
    with django_capture_on_commit_callbacks(execute=False):
        game = until_turn_of(start_game(alice, bob), bob)
    seat = game.to_act[0]

    # The mail server is down: the task fails (Celery retries it) and releases its claim.
    with (
        override_settings(
            EMAIL_BACKEND=SMTP_BACKEND, EMAIL_HOST="127.0.0.1", EMAIL_PORT=free_port()
        ),
        pytest.raises(OSError),
    ):
        send_turn_email(game.pk, seat, game.version)
    assert Notice.objects.get(kind=Kind.TURN).sent_at is None

    with override_settings(EMAIL_BACKEND=SMTP_BACKEND, EMAIL_HOST="127.0.0.1", EMAIL_PORT=port):
        assert send_turn_email(game.pk, seat, game.version) == "sent"
        assert send_turn_email(game.pk, seat, game.version) == "already sent"

    assert len(inbox.messages) == 1
    recipients, message = inbox.messages[0]
    assert recipients == [bob.email]
    assert message["Subject"] == f"Your turn at table {game.table_id}"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert (
        message["List-Unsubscribe"]
        .strip()
        .startswith("<http://localhost:8000/notifications/unsubscribe/")
    )
    parts = parts_of(message)
    assert {"text/plain", "text/html"} <= set(parts)
    text = parts["text/plain"]
    assert f"http://localhost:8000/accounts/login/?next=/games/{game.pk}/" in text
