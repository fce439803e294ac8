"""Per-seat clocks under a controlled clock: each rule fires at its moment, and once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.clocks import seat_clocks
from games.models import Action, Game, Seat, SeatClock, Table
from games.play import services
from games.presenters import game_context
from games.tables import lifecycle
from games.tasks import bot_move, clock_expired, sweep_deadlines
from tests.games.clock_helpers import (
    DAY,
    HOUR,
    at,
    correspondence_game,
    discard_last,
    fresh,
    live_clock,
    to_move,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_deal")]

WEDNESDAY_NOON = datetime(2030, 1, 9, 12, 0, tzinfo=UTC)


# --- Deadlines --------------------------------------------------------------------------------


def test_a_turn_has_its_deadline_a_move_time_after_it_began(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, move_seconds=12 * 3600)
    seat = to_move(game)
    clock = live_clock(game, seat)
    assert clock.started_at == WEDNESDAY_NOON
    assert clock.deadline == WEDNESDAY_NOON + 12 * HOUR
    assert fresh(game).deadline == clock.deadline
    with at(WEDNESDAY_NOON + 11 * HOUR):
        assert sweep_deadlines() == 0
    with at(WEDNESDAY_NOON + 12 * HOUR):
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
    assert Action.objects.filter(game=game, cause=Action.Cause.AUTOPLAY).exists()
    assert seat not in fresh(game).to_act


def test_actions_of_one_turn_and_undo_never_give_time_back(alice, bob):
    options = {"doubla": False, "first_meld_takes_discard": True}
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, options=options, on_timeout="move")
        first = to_move(game)
        discard_last(game, first)
    second = 1 - first
    with at(WEDNESDAY_NOON + HOUR):
        discard_last(game, second)  # draw, then discard: the first player's turn again
    turn_began = WEDNESDAY_NOON + HOUR
    deadline = live_clock(game, first).deadline
    assert deadline == turn_began + timedelta(days=1)
    # Take the discard, undo, take, undo...: each is saved at once, none restarts the clock.
    for hours in (3, 10, 20):
        with at(turn_began + hours * HOUR):
            version = fresh(game).version
            services.play(game.pk, first, "take", version)
            services.play(game.pk, first, "undo", version + 1)
            assert live_clock(game, first).deadline == deadline
            assert fresh(game).deadline == deadline
    with at(deadline - timedelta(seconds=1)):
        assert sweep_deadlines() == 0
    with at(deadline):
        assert sweep_deadlines() == 1
    assert first not in fresh(game).to_act


def test_each_seat_in_a_prelude_has_its_own_deadline_and_timeout(alice, bob, carol):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, carol, options={"doubla": True})
    assert fresh(game).phase == "prelude"
    assert sorted(fresh(game).to_act) == [0, 1, 2]
    with at(WEDNESDAY_NOON + 5 * HOUR):
        services.play(game.pk, 0, "ready", fresh(game).version)
    # The others' clocks did not move when Alice got ready.
    for seat in (1, 2):
        assert live_clock(game, seat).deadline == WEDNESDAY_NOON + timedelta(days=1)
    with at(WEDNESDAY_NOON + timedelta(days=1)):
        # Two idle players take one day between them, not two: each times out at once.
        assert sweep_deadlines() == 2
        assert sweep_deadlines() == 0
    game = fresh(game)
    assert game.phase != "prelude"
    # A bot may play several actions of a seat's prelude (a doubla, then ready).
    timed = Action.objects.filter(game=game, cause=Action.Cause.AUTOPLAY)
    assert set(timed.values_list("seat", flat=True)) == {1, 2}
    timed_out = SeatClock.objects.filter(game=game, timed_out=True)
    assert sorted(timed_out.values_list("seat", flat=True)) == [1, 2]
    assert list(
        Seat.objects.filter(table=game.table).values_list("timeouts_in_row", flat=True)
    ) == [
        0,
        1,
        1,
    ]
    # The last seat to be ready does not carry its prelude clock into its first turn.
    (seat,) = game.to_act
    assert live_clock(game, seat).started_at == WEDNESDAY_NOON + timedelta(days=1)


def test_the_weekend_pause_follows_each_players_own_time_zone(alice, bob):
    alice.time_zone = "Pacific/Auckland"
    bob.time_zone = "America/Los_Angeles"
    alice.save()
    bob.save()
    # Friday 2030-01-11 20:00 UTC: already Saturday 09:00 in Auckland, Friday noon in LA.
    friday = datetime(2030, 1, 11, 20, 0, tzinfo=UTC)
    auckland, los_angeles = ZoneInfo("Pacific/Auckland"), ZoneInfo("America/Los_Angeles")
    four_hours = 4 * 3600
    # Auckland: the weekend has begun; four hours from Monday 00:00 local.
    assert seat_clocks.deadline_after(friday, four_hours, auckland, weekends_off=True) == datetime(
        2030, 1, 13, 15, 0, tzinfo=UTC
    )
    # Los Angeles: Friday noon + 4 h is before the weekend.
    assert seat_clocks.deadline_after(
        friday, four_hours, los_angeles, weekends_off=True
    ) == friday + timedelta(hours=4)
    # Twelve hours from Friday noon in LA: 12 h until Saturday, so the rest ends... Monday.
    assert seat_clocks.deadline_after(
        friday, 13 * 3600, los_angeles, weekends_off=True
    ) == datetime(2030, 1, 14, 9, 0, tzinfo=UTC)  # Monday 01:00 in LA (UTC-8)
    with at(friday):
        game = correspondence_game(alice, bob, move_seconds=DAY, weekends_off=True)
        seat = to_move(game)
        zone = auckland if seat == 0 else los_angeles
        expected = seat_clocks.deadline_after(friday, DAY, zone, weekends_off=True)
        assert live_clock(game, seat).deadline == expected
        assert expected.astimezone(zone).weekday() < 5
    with at(friday + timedelta(days=1, hours=1)):
        assert sweep_deadlines() == 0  # a day has passed, but not a day of clock time
    with at(expected):
        assert sweep_deadlines() == 1


def test_clock_time_between_leaves_out_the_weekend():
    zone = ZoneInfo("Europe/Bucharest")
    friday_noon = datetime(2030, 1, 11, 10, 0, tzinfo=UTC)  # 12:00 in Bucharest
    monday_noon = datetime(2030, 1, 14, 10, 0, tzinfo=UTC)
    assert seat_clocks.clock_time_between(
        friday_noon, monday_noon, zone, weekends_off=True
    ) == timedelta(hours=24)
    assert seat_clocks.clock_time_between(
        friday_noon, monday_noon, zone, weekends_off=False
    ) == timedelta(hours=72)


# --- On time, not a sweep later -----------------------------------------------------------


def test_the_timeout_task_is_queued_for_the_deadline_and_plays_then_once(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(
        clock_expired, "apply_async", lambda args, eta: queued.append((tuple(args), eta))
    )
    with at(WEDNESDAY_NOON), django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game(alice, bob, move_seconds=20 * 60)  # within the horizon
    seat = to_move(game)
    deadline = WEDNESDAY_NOON + timedelta(minutes=20)
    assert queued == [((game.pk, seat, 0), deadline)]
    with at(deadline - timedelta(seconds=1)):
        assert clock_expired(game.pk, seat, 0) == "nothing due"
    with at(deadline):
        assert clock_expired(game.pk, seat, 0) == "played"
        # A duplicate delivery, or the sweep behind it, finds nothing left to do.
        assert clock_expired(game.pk, seat, 0) == "nothing due"
        assert sweep_deadlines() == 0
    assert Action.objects.filter(game=game, seat=seat).exclude(cause="").count() >= 1


def test_a_long_deadline_is_queued_by_the_sweep_once_it_comes_near(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr(
        clock_expired, "apply_async", lambda args, eta: queued.append((tuple(args), eta))
    )
    with at(WEDNESDAY_NOON), django_capture_on_commit_callbacks(execute=True):
        game = correspondence_game(alice, bob, move_seconds=3 * DAY)
    assert queued == []  # days ahead: not held in the broker
    seat = to_move(game)
    deadline = live_clock(game, seat).deadline
    with at(deadline - timedelta(minutes=30)):
        sweep_deadlines()
        sweep_deadlines()
    assert queued == [((game.pk, seat, 0), deadline)]


# --- Autoplay, hand-over, taking the seat back ------------------------------------------------


def test_autoplay_plays_the_whole_turn_and_everyone_reads_that_the_clock_did(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob)
        first = to_move(game)
        discard_last(game, first)
    second = 1 - first
    with at(WEDNESDAY_NOON + timedelta(days=1, hours=2)):
        assert sweep_deadlines() == 1
    game = fresh(game)
    played = Action.objects.filter(game=game, seat=second).order_by("version")
    assert [a.cause for a in played] == [Action.Cause.AUTOPLAY] * played.count()
    assert played.count() >= 2  # a draw (or take) and the discard that ends the turn
    assert second not in game.to_act
    assert Seat.objects.get(table=game.table, position=second).timeouts_in_row == 1
    seats = list(Seat.objects.filter(table=game.table).select_related("user"))
    watcher = game_context(game, seats, first)
    lines = [line for entry in watcher["log"] for line in entry["lines"]]
    name = seats[second].display_name
    assert f"{name}'s time ran out: a bot played this move for them." in lines
    # What the autoplayer drew stays on its rack: the opponent's log names no drawn tile.
    drawn = [tile for a in played for e in a.events if e["kind"] == "drew" for tile in e["secret"]]
    for tile in drawn:
        assert not any(tile in line for line in lines if "drew" in line), lines


def test_a_player_move_resets_the_count_of_timeouts(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob)
        first = to_move(game)
    with at(WEDNESDAY_NOON + timedelta(days=1)):
        assert sweep_deadlines() == 1
    assert Seat.objects.get(table=game.table, position=first).timeouts_in_row == 1
    with at(WEDNESDAY_NOON + timedelta(days=1, hours=1)):
        discard_last(game, 1 - first)
        discard_last(game, first)
    assert Seat.objects.get(table=game.table, position=first).timeouts_in_row == 0


def test_after_n_timeouts_in_a_row_a_bot_takes_the_seat_and_the_player_can_take_it_back(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, handover_after=2)
        first = to_move(game)
    now = WEDNESDAY_NOON
    for _ in range(3):  # first, second, first: each player idle for a whole day
        now += timedelta(days=1)
        with at(now):
            assert sweep_deadlines() == 1
    seat = Seat.objects.get(table=game.table, position=first)
    assert seat.handed_over and seat.abandoned_at == now
    assert seat.timeouts_in_row == 2
    assert Action.objects.filter(game=game, cause=Action.Cause.HANDED_OVER).count() == 1
    user = seat.user
    game = fresh(game)
    # A handed-over seat is the bot's: the player's own move is refused, nothing changes.
    if first in game.to_act:
        with pytest.raises(services.SeatHandedOver):
            services.play(game.pk, first, "draw", game.version)
    with at(now + HOUR):
        lifecycle.take_seat_back(game.table, user)
    seat.refresh_from_db()
    assert not seat.handed_over and seat.abandoned_at is None and seat.timeouts_in_row == 0
    with pytest.raises(lifecycle.TableError):
        lifecycle.take_seat_back(game.table, user)


def test_taking_the_seat_back_mid_turn_gives_a_whole_turn_from_then(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, handover_after=1)
        first = to_move(game)
    with at(WEDNESDAY_NOON + timedelta(days=1)):
        assert sweep_deadlines() == 1
    seat = Seat.objects.get(table=game.table, position=first)
    assert seat.handed_over
    # When the autoplay laid melds before the handover, the bot's own task ends the turn (in
    # a worker, queued on commit; here, called directly).
    while first in fresh(game).to_act:
        assert bot_move(game.pk, fresh(game).version) != "flagged"
    second = 1 - first
    assert fresh(game).to_act == [second]
    with at(WEDNESDAY_NOON + timedelta(days=1, hours=1)):
        discard_last(game, second)
    assert first in fresh(game).to_act
    assert live_clock(game, first).deadline is None  # a bot's turn has no clock
    back = WEDNESDAY_NOON + timedelta(days=1, hours=2)
    with at(back):
        lifecycle.take_seat_back(game.table, seat.user)
    assert live_clock(game, first).deadline == back + timedelta(days=1)
    assert not fresh(game).waiting_for_bot


# --- Who owes what: the function the notifications use ----------------------------------------


def test_seat_deadlines_lists_pending_turns_most_urgent_first(alice, bob, carol):
    with at(WEDNESDAY_NOON):
        slow = correspondence_game(alice, bob, move_seconds=3 * DAY)
        fast = correspondence_game(alice, carol, move_seconds=3600)
    # Make it Alice's turn in both.
    for game in (slow, fast):
        if to_move(game) != 0:
            with at(WEDNESDAY_NOON):
                discard_last(game, to_move(game))
    with at(WEDNESDAY_NOON + timedelta(minutes=50)):
        owed = seat_clocks.seat_deadlines(alice)
    assert [d.game_id for d in owed] == [fast.pk, slow.pk]
    assert owed[0].urgent and not owed[1].urgent  # 50 of 60 minutes gone; an hour of 3 days
    assert owed[0].seat == 0 and owed[0].turn_started == WEDNESDAY_NOON
    assert owed[0].deadline == WEDNESDAY_NOON + HOUR
    key = SeatClock.objects.get(game_id=owed[0].game_id, seat=0, turn=owed[0].turn)
    assert key.ended_at is None
    assert seat_clocks.seat_deadlines(bob) == []  # Bob owes nothing: Alice is to play


def test_a_finished_game_has_no_running_clock(alice, bob):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert seat_clocks.seat_deadlines(alice) == [] and seat_clocks.seat_deadlines(bob) == []


def test_a_live_table_keeps_the_timeout_move(alice, bob):
    with at(WEDNESDAY_NOON):
        table = lifecycle.create_table(
            alice, seat_count=2, options={"doubla": False}, move_seconds=20
        )
        lifecycle.join_table(table, bob)
        game = lifecycle.start_table(table, alice)
    assert table.on_timeout == Table.OnTimeout.MOVE
    seat = to_move(game)
    rack = fresh(game).state["racks"][seat].split()
    with at(WEDNESDAY_NOON + timedelta(seconds=20)):
        assert sweep_deadlines() == 1
    action = Action.objects.get(game=game)
    assert (action.notation, action.cause) == (f"discard {rack[-1]}", Action.Cause.TIMEOUT)


@pytest.mark.parametrize("on_timeout", ["autoplay", "move"])
def test_the_tile_rummy_gets_the_same_clocks(alice, bob, on_timeout):
    with at(WEDNESDAY_NOON):
        game = correspondence_game(alice, bob, game_type="rummikub", on_timeout=on_timeout)
    seat = to_move(game)
    assert live_clock(game, seat).deadline == WEDNESDAY_NOON + timedelta(days=1)
    with at(WEDNESDAY_NOON + timedelta(days=1)):
        assert sweep_deadlines() == 1
        assert sweep_deadlines() == 0
    assert seat not in fresh(game).to_act
    cause = Action.Cause.AUTOPLAY if on_timeout == "autoplay" else Action.Cause.TIMEOUT
    assert set(Action.objects.filter(game=game).values_list("cause", flat=True)) == {cause}
