"""Time running out: once 80% of the time for a move has passed, a reminder (an email for a
player who asked, the badge turns urgent), once per turn."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from games.clocks.seat_clocks import seat_deadlines
from notifications.kinds import Kind
from notifications.models import Notice
from notifications.tasks import sweep_reminders
from tests.notifications.conftest import (
    hours,
    opt_in,
    play_timeout_move,
    seat_user,
    start_game,
    until_turn_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def bobs_turn(alice, bob, django_capture_on_commit_callbacks):
    """A slow game with a day per move, where Bob has just been given the turn."""
    with django_capture_on_commit_callbacks(execute=False):
        game = until_turn_of(start_game(alice, bob), bob)
    assert seat_user(game, game.to_act[0]) == bob
    return game


def test_the_reminder_comes_at_80_percent_once_and_in_the_players_language(
    bob, bobs_turn, eager_celery, mailoutbox
):
    opt_in(bob, reminder_email=True)
    bob.preferred_language = "ro"
    bob.save()
    start = bobs_turn.updated_at
    with time_machine.travel(start + hours(19), tick=False):  # 79%
        assert sweep_reminders() == 0
        assert not seat_deadlines(bob)[0].urgent
    with time_machine.travel(start + hours(19.5), tick=False):  # 81%
        assert sweep_reminders() == 1
        assert seat_deadlines(bob)[0].urgent
        assert sweep_reminders() == 0  # a second sweep finds it done
    with time_machine.travel(start + hours(23), tick=False):
        assert sweep_reminders() == 0
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == [bob.email]
    # Bob reads Romanian: the subject comes from the site's own Romanian catalogue.
    assert message.subject == f"Timpul e pe terminate la masa {bobs_turn.table_id}"
    # The deadline is written in Romanian (Django's own month names), in both parts.
    month = timezone.localtime(bobs_turn.deadline).month
    romanian_months = ["ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie"]
    romanian_months += ["august", "septembrie", "octombrie", "noiembrie", "decembrie"]
    assert romanian_months[month - 1] in message.body.lower()
    assert romanian_months[month - 1] in message.alternatives[0][0].lower()
    notice = Notice.objects.get(kind=Kind.REMINDER)
    assert notice.emailed and notice.sent_at is not None


def test_a_player_who_did_not_ask_gets_no_email_but_the_turn_is_still_marked(
    bob, bobs_turn, eager_celery, mailoutbox
):
    with time_machine.travel(bobs_turn.updated_at + hours(20), tick=False):
        assert sweep_reminders() == 1
        assert sweep_reminders() == 0
    assert mailoutbox == []
    assert Notice.objects.get(kind=Kind.REMINDER).emailed is False


def test_each_turn_gets_its_own_reminder(
    alice, bob, bobs_turn, eager_celery, mailoutbox, django_capture_on_commit_callbacks
):
    opt_in(alice, reminder_email=True)
    opt_in(bob, reminder_email=True)
    start = bobs_turn.updated_at
    with time_machine.travel(start + hours(20), tick=False):
        assert sweep_reminders() == 1
        with django_capture_on_commit_callbacks(execute=False):
            alices_turn = play_timeout_move(bobs_turn)  # Bob plays at last
            alices_turn = until_turn_of(alices_turn, alice)  # a turn may take two moves
    with time_machine.travel(start + hours(40), tick=False):
        assert sweep_reminders() == 1
    assert [m.to for m in mailoutbox] == [[bob.email], [alice.email]]
    assert Notice.objects.filter(kind=Kind.REMINDER, game=alices_turn).count() == 2
