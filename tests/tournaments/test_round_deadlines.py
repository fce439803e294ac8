"""The beat sweep of correspondence rounds: one reminder before the deadline to the players
of unfinished matches who want reminders, then a flag for adjudication, each once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from notifications.models import Preferences
from tests.tournaments.helpers import players, tournament
from tests.tournaments.test_ratings import play_to_the_end
from tournaments import services
from tournaments.models import AuditEntry, Match, Round
from tournaments.tasks import sweep_round_deadlines

pytestmark = pytest.mark.django_db


def test_a_round_deadline_reminds_once_then_flags_the_round_once(alice, mailoutbox):
    event = tournament(alice, seat_count=2, rounds=1, pace="slow", move_seconds=86400, round_days=3)
    services.open_registration(event, alice)
    field = players(4)
    for user in field:
        services.register(event, user)
        Preferences.objects.create(user=user, reminder_email=user != field[3])
    round_ = services.confirm_round(services.propose_round(event, alice), alice)
    finished, unfinished = Match.objects.filter(round=round_).order_by("index")
    play_to_the_end(finished.table.games.get(), "done early")
    deadline = round_.deadline

    assert sweep_round_deadlines() == (0, 0)  # days before the deadline: nothing
    # A three-day round reminds in its last fifth (14.4 hours), not a whole day ahead.
    with time_machine.travel(deadline - timedelta(hours=15), tick=False):
        assert sweep_round_deadlines() == (0, 0)
    with time_machine.travel(deadline - timedelta(hours=12), tick=False):
        reminded, flagged = sweep_round_deadlines()
        assert sweep_round_deadlines() == (0, 0)
    wanted = {u.email for u in field[:3] if u.pk in unfinished.players}
    assert (reminded, flagged) == (len(wanted), 0)
    assert {m.to[0] for m in mailoutbox} == wanted
    assert all(f"{event.name}: round 1 ends soon" == m.subject for m in mailoutbox)
    assert all(f"/games/{unfinished.table.games.get().pk}/" in m.body for m in mailoutbox)

    with time_machine.travel(deadline + timedelta(seconds=1), tick=False):
        assert sweep_round_deadlines() == (0, 1)
        assert sweep_round_deadlines() == (0, 0)
    round_.refresh_from_db()
    assert round_.needs_adjudication and round_.status == Round.Status.PLAYING
    unfinished.refresh_from_db()
    assert unfinished.status == Match.Status.PLAYING  # the organiser decides, not the sweep
    (entry,) = AuditEntry.objects.filter(tournament=event, actor=None)
    assert "to adjudicate" in entry.what
    assert timezone.now() < deadline
