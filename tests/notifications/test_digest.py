"""The daily digest: at the hour the player chose, in their time zone, once a day, every
game waiting for them, most urgent first."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from accounts.models import User
from notifications.tasks import sweep_digests
from notifications.zones import zone_of
from tests.notifications.conftest import DAY, opt_in, start_game, until_turn_of

pytestmark = pytest.mark.django_db

TOKYO = ZoneInfo("Asia/Tokyo")


def at_tokyo(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2030, 3, day, hour, minute, tzinfo=TOKYO)


@pytest.fixture
def two_games_waiting_for_bob(alice, bob, carol, django_capture_on_commit_callbacks):
    """Bob owes a move in two slow games: one with a day per move, one with an hour (which
    becomes urgent first)."""
    games = []
    with (
        time_machine.travel(at_tokyo(1, 6, 10), tick=False),
        django_capture_on_commit_callbacks(execute=False),
    ):
        for owner, seconds in ((alice, DAY), (carol, 3600)):
            games.append(until_turn_of(start_game(owner, bob, move_seconds=seconds), bob))
    return games


def test_the_digest_comes_at_the_chosen_local_hour_once_a_day_most_urgent_first(
    bob, two_games_waiting_for_bob, eager_celery, mailoutbox
):
    slow, urgent = two_games_waiting_for_bob
    opt_in(bob, digest_hour=7)
    bob.email_on_turn = False
    bob.time_zone = "Asia/Tokyo"  # the hour is the player's own
    bob.save()
    with time_machine.travel(at_tokyo(1, 6, 55), tick=False):  # 21:55 UTC the day before
        assert sweep_digests() == 0
    with time_machine.travel(at_tokyo(1, 7, 0), tick=False):
        assert sweep_digests() == 1
    with time_machine.travel(at_tokyo(1, 7, 55), tick=False):
        assert sweep_digests() == 0
    with time_machine.travel(at_tokyo(1, 8, 0), tick=False):
        assert sweep_digests() == 0
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.subject == "2 games are waiting for you"
    # The one-hour game is past 80% of its time: listed first, marked urgent in both parts.
    first, second = f"/games/{urgent.pk}/", f"/games/{slow.pk}/"
    for body in (message.body, message.alternatives[0][0]):
        assert body.index(first) < body.index(second)
        assert body.count("URGENT") == 1
    with time_machine.travel(at_tokyo(2, 7, 10), tick=False):  # the next day: again
        assert sweep_digests() == 1
    assert len(mailoutbox) == 2


def test_no_digest_when_no_game_waits(alice, bob, eager_celery, mailoutbox):
    opt_in(alice, digest_hour=7)
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    with time_machine.travel(at_tokyo(1, 7), tick=False):
        assert sweep_digests() == 1  # queued, then nothing to say
        assert mailoutbox == []


def test_a_players_own_time_zone_wins_over_the_sites(alice):
    assert zone_of(alice) == ZoneInfo("Europe/Bucharest")
    alice.time_zone = "America/Lima"
    assert zone_of(alice) == ZoneInfo("America/Lima")
    alice.time_zone = "Not/AZone"
    assert zone_of(alice) == ZoneInfo("Europe/Bucharest")
    assert isinstance(alice, User)
