"""Vacations stop correspondence clocks; tables that forbid them keep theirs running."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.urls import reverse

from accounts import vacation
from accounts.models import User
from games.models import Game, Seat
from games.presenters import game_context
from games.tasks import sweep_deadlines
from tests.games.clock_helpers import at, correspondence_game, fresh, live_clock, to_move

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_deal")]

NOON = datetime(2030, 1, 9, 12, 0, tzinfo=UTC)  # a Wednesday


@pytest.fixture(autouse=True)
def _joined_that_morning(request):
    # The tests travel to 2030: players who joined "today" would have earned years of days.
    for name in ("alice", "bob"):
        if name in request.fixturenames:
            user = request.getfixturevalue(name)
            User.objects.filter(pk=user.pk).update(date_joined=NOON - timedelta(hours=3))
            user.refresh_from_db()


def test_the_balance_earns_a_day_a_week_up_to_the_cap():
    start = date(2030, 1, 1)
    assert vacation.credited(14, start, start + timedelta(days=6)) == (14, start)
    assert vacation.credited(14, start, start + timedelta(days=15)) == (
        16,
        start + timedelta(days=14),
    )
    assert vacation.credited(14, start, start + timedelta(weeks=52)) == (
        30,
        start + timedelta(weeks=52),
    )


def test_every_started_day_is_spent():
    assert vacation.days_spent(NOON, NOON + timedelta(minutes=5)) == 1
    assert vacation.days_spent(NOON, NOON + timedelta(days=1)) == 1
    assert vacation.days_spent(NOON, NOON + timedelta(days=1, seconds=1)) == 2


def test_a_new_player_has_fourteen_days_and_earns_from_joining(alice):
    User.objects.filter(pk=alice.pk).update(date_joined=NOON)
    alice.refresh_from_db()
    with at(NOON + timedelta(weeks=3, days=1)):
        assert vacation.balance(alice) == 17


def test_a_vacation_stops_the_clock_and_moves_the_deadline_by_the_time_away(alice, bob):
    alice.refresh_from_db()
    with at(NOON):
        game = correspondence_game(alice, bob)
        if to_move(game) != 0:
            from tests.games.clock_helpers import discard_last

            discard_last(game, to_move(game))
    deadline = live_clock(game, 0).deadline
    assert deadline == NOON + timedelta(days=1)
    with at(NOON + timedelta(hours=2)):
        vacation.start_vacation(alice)
    # Opponents read that Alice is away, and until when.
    seats = list(Seat.objects.filter(table=game.table).select_related("user"))
    context = game_context(fresh(game), seats, 1)
    assert [a["name"] for a in context["away"]] == ["Alice"]
    with at(NOON + timedelta(days=2)):
        assert sweep_deadlines() == 0  # no timeout fires while she is away
    back = NOON + timedelta(days=2, hours=2)  # 48 hours away: two days spent
    with at(back):
        alice = vacation.end_vacation(alice)
    assert alice.vacation_days == 12
    moved = live_clock(game, 0).deadline
    assert moved == deadline + (back - (NOON + timedelta(hours=2)))
    assert fresh(game).deadline == moved
    with at(moved - timedelta(seconds=1)):
        assert sweep_deadlines() == 0
    with at(moved):
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0


def test_a_vacation_ends_by_itself_when_the_days_run_out(alice, bob):
    User.objects.filter(pk=alice.pk).update(vacation_days=1, vacation_credited_on=NOON.date())
    alice.refresh_from_db()
    with at(NOON):
        game = correspondence_game(alice, bob)
        vacation.start_vacation(alice)
    seat = to_move(game)
    # A turn that begins while its player is away starts stopped.
    if seat == 0:
        assert live_clock(game, 0).paused_at is not None
    with at(NOON + timedelta(days=1, hours=5)):  # the sweep comes a little late
        sweep_deadlines()
    alice.refresh_from_db()
    assert not alice.on_vacation and alice.vacation_days == 0
    if seat == 0:
        # Counted from when the days ran out, not from when the sweep noticed.
        assert live_clock(game, 0).deadline == NOON + timedelta(days=2)
    with pytest.raises(vacation.VacationError), at(NOON + timedelta(days=1, hours=6)):
        vacation.start_vacation(alice)


def test_a_table_that_forbids_vacations_keeps_the_clock_running(alice, bob):
    with at(NOON):
        game = correspondence_game(alice, bob, vacation_allowed=False)
        seat = to_move(game)
        vacation.start_vacation(alice if seat == 0 else bob)
    with at(NOON + timedelta(days=1)):
        assert sweep_deadlines() == 1
    assert seat not in fresh(game).to_act
    assert Game.objects.get(pk=game.pk).version > 0


def test_the_profile_button_starts_and_ends_a_vacation(client, alice):
    User.objects.filter(pk=alice.pk).update(date_joined=datetime.now(UTC))
    client.force_login(alice)
    assert client.post(reverse("accounts:vacation")).status_code == 302
    alice.refresh_from_db()
    assert alice.on_vacation
    client.post(reverse("accounts:vacation"))
    alice.refresh_from_db()
    assert not alice.on_vacation and alice.vacation_days == 13


def test_the_profile_refuses_an_unknown_time_zone_and_keeps_the_old_one(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:profile"), {"display_name": "Alice", "time_zone": "../../etc/passwd"}
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Bucharest"
    client.post(
        reverse("accounts:profile"), {"display_name": "Alice", "time_zone": "Pacific/Auckland"}
    )
    alice.refresh_from_db()
    assert alice.time_zone == "Pacific/Auckland"


def test_the_vacation_notice_gives_its_end_in_the_players_time_zone(client, alice):
    """Issue 30, fault 4: the flash gave the end in UTC ("12:29 a.m..", a full stop too many)
    while the profile showed local time."""
    User.objects.filter(pk=alice.pk).update(date_joined=datetime.now(UTC), time_zone="Asia/Kolkata")
    client.force_login(alice)
    with at(datetime(2026, 3, 2, 10, 0, tzinfo=UTC)):
        page = client.post(reverse("accounts:vacation"), follow=True).content.decode()
    alice.refresh_from_db()
    # Kolkata is UTC+5:30: the vacation's end, 10:00 UTC some days on, is 3:30 p.m. there.
    ends = vacation.ends_at(alice)
    assert ends is not None and ends.astimezone(UTC).hour == 10
    assert "3:30 p.m.)" in page
    assert "10 a.m." not in page and ".." not in page.split("vacation has begun")[1][:200]


def test_the_game_page_speaks_to_the_vacationer_of_their_own_clock(client, alice, bob):
    """Issue 30, fault 4: the vacationer's own page said "Their clock is stopped" of them."""
    game = correspondence_game(alice, bob)
    vacation.start_vacation(alice)
    client.force_login(alice)
    own = client.get(game.get_absolute_url()).content.decode()
    assert "You are on vacation (until" in own and "Your clock is stopped." in own
    assert "Their clock is stopped." not in own
    # The end's time may itself end in a full stop ("2:29 a.m."): never two in a row.
    assert ".." not in own.split("on vacation (until")[1][:80]
    client.force_login(bob)
    other = client.get(game.get_absolute_url()).content.decode()
    assert "is on vacation (until" in other and "Their clock is stopped." in other
    assert ".." not in other.split("on vacation (until")[1][:80]
