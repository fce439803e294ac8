"""Faults in the real stack: the worker and beat die and come back, a game breaks the engine.

The processes are the real ones (``clock_stack``: a prefork Celery worker and Celery beat as
child processes on the test database and Redis, sweeping every second); the games are
correspondence games created through ``services``, whose clocks queue their own on-time
tasks.  Nobody plays by hand in these games, so every move in their logs is the clock's,
and ``clock_audit`` can tell a turn played twice or missed from the record alone.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.clocks import seat_clocks
from games.models import Action, Game, SeatClock, Table
from games.play import services
from tests.games.clock_audit import clock_only_problems
from tests.games.clock_helpers import correspondence_game, fresh

pytestmark = [
    pytest.mark.stack,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("one_deal"),
]

# Seconds a move: the clocks play a turn every two seconds while the stack is up.
QUICK = 2
HOUR = 3600
# A live clock this long past its deadline while the stack runs has been missed.
MISSED_AFTER = timedelta(seconds=10)
DEADLINE_SWEEP = "games.tasks.sweep_deadlines"


def clock_played(games: list[Game], at_least: int) -> bool:
    return all(
        SeatClock.objects.filter(game=game, timed_out=True).count() >= at_least for game in games
    )


def wait_until(moment: datetime) -> None:
    """Let time pass, with nothing to poll: the stack is dead, which is the point."""
    time.sleep(max(0.0, (moment - timezone.now()).total_seconds()))


def test_deadlines_missed_while_worker_and_beat_are_dead_are_each_played_once_after(
    clock_stack, alice, bob, carol
):
    clock_stack.start(web=False)
    quick = {"move_seconds": QUICK, "on_timeout": Table.OnTimeout.MOVE, "handover_after": 0}
    games = [
        correspondence_game(alice, bob, **quick),
        correspondence_game(bob, carol, **quick),
        # Doublas on: the game opens with a phase where all three seats owe a move at once,
        # each on a clock of its own.
        correspondence_game(carol, alice, bob, options={"doubla": True}, **quick),
    ]
    clock_stack.wait_for(lambda: clock_played(games, 2), what="two timeouts in every game")

    clock_stack.kill_celery()
    versions = {game.pk: fresh(game).version for game in games}
    owed = list(SeatClock.objects.filter(game__in=games, ended_at__isnull=True))
    assert {clock.game_id for clock in owed} == set(versions)
    # Past every owed deadline, and past the lease of a claim the killed worker held.
    wait_until(max(max(c.deadline, c.due_at or c.deadline) for c in owed) + timedelta(seconds=1))
    assert {game.pk: fresh(game).version for game in games} == versions, "nothing runs"

    restarted = timezone.now()
    clock_stack.start_celery()
    clock_stack.wait_for(
        lambda: (
            not SeatClock.objects.filter(
                pk__in=[c.pk for c in owed], ended_at__isnull=True
            ).exists()
        ),
        what="the deadlines missed while the worker was dead to be played",
    )
    # And the games go on: a turn that began after the restart was timed out and ended too.
    clock_stack.wait_for(
        lambda: all(
            SeatClock.objects.filter(
                game=game, started_at__gt=restarted, timed_out=True, ended_at__isnull=False
            )
            for game in games
        ),
        what="a timeout of a turn begun after the restart in every game",
    )
    clock_stack.kill_celery()
    stopped = timezone.now()

    for clock in owed:
        clock.refresh_from_db()
        ends = Action.objects.filter(
            game=clock.game_id, seat=clock.seat, version__gt=clock.turn
        ).order_by("version")
        end = next(a for a in ends if a.notation.split()[0] in ("discard", "ready"))
        assert clock.timed_out and end.created_at >= restarted, (clock, end)
    problems = [
        problem
        for game in games
        for problem in clock_only_problems(game, overdue_before=stopped - MISSED_AFTER)
    ]
    assert problems == [], "\n".join(problems)
    assert not Game.objects.filter(pk__in=versions, flagged_at__isnull=False).exists()


def sweeps_played(clock_stack) -> int:
    """How many turns the deadline sweeps say they played (each returns its count)."""
    return sum(int(result) for result in clock_stack.finished_tasks(DEADLINE_SWEEP))


def empty_the_rack_of_the_seat_in_play(game: Game) -> int:
    """Bring the game to a seat that has drawn (by hand) and is about to lay down or
    discard, then store a state in which that seat holds no tile: the engine loads it,
    and both the bot and the timeout move raise on it."""
    engine = services.game_of(game.table)
    while (game := fresh(game)).phase != "draw":
        (seat,) = game.to_act
        action = engine.timeout_action(engine.load(game.state), seat)
        services.play(game.pk, seat, action, game.version)
    (seat,) = game.to_act
    services.play(game.pk, seat, "draw", game.version)
    state = fresh(game).state
    state["racks"][seat] = ""
    Game.objects.filter(pk=game.pk).update(state=state)
    return seat


def make_due(game: Game, ago: timedelta) -> SeatClock:
    clock = SeatClock.objects.get(game=game, ended_at__isnull=True)
    due = timezone.now() - ago
    SeatClock.objects.filter(pk=clock.pk).update(deadline=due, due_at=due, eta_at=None)
    seat_clocks.refresh_game_deadlines([game.pk])
    return clock


def test_a_game_whose_bot_crashes_in_the_engine_is_flagged_and_the_sweep_plays_the_rest(
    clock_stack, alice, bob, carol, admin_client
):
    # Hour-long clocks queue no on-time task: the sweep alone finds these deadlines.
    broken = correspondence_game(alice, bob, move_seconds=HOUR)
    sound = [
        correspondence_game(bob, carol, move_seconds=HOUR),
        correspondence_game(carol, alice, move_seconds=HOUR),
    ]
    seat = empty_the_rack_of_the_seat_in_play(broken)
    broken_version = fresh(broken).version
    # The broken game is the most overdue, so the sweep meets it first.
    make_due(broken, timedelta(minutes=2))
    owed = [make_due(game, timedelta(minutes=1)) for game in sound]

    clock_stack.start(web=False)
    clock_stack.wait_for(
        lambda: (
            fresh(broken).flagged_at
            and not SeatClock.objects.filter(
                pk__in=[c.pk for c in owed], ended_at__isnull=True
            ).exists()
        ),
        what="the broken game flagged and the others played",
    )
    flagged_at = fresh(broken).flagged_at
    # The sweeps played them (no on-time task was queued): a sweep may still be finishing.
    clock_stack.wait_for(
        lambda: sweeps_played(clock_stack) >= len(sound), what="the sweeps to report their turns"
    )
    # Two more sweeps: they leave the flagged game alone.
    sweeps = len(clock_stack.finished_tasks(DEADLINE_SWEEP))
    clock_stack.wait_for(
        lambda: len(clock_stack.finished_tasks(DEADLINE_SWEEP)) >= sweeps + 2,
        what="two more deadline sweeps",
    )

    broken = fresh(broken)
    assert broken.flagged_at == flagged_at and broken.version == broken_version
    assert f"seat {seat}" in broken.flagged_reason and "timeout move" in broken.flagged_reason
    assert not Action.objects.filter(game=broken, cause__in=services.CLOCK_CAUSES).exists()
    assert SeatClock.objects.get(game=broken, ended_at__isnull=True).due_at is None
    for clock in owed:
        clock.refresh_from_db()
        assert clock.timed_out, clock
        assert Action.objects.filter(
            game=clock.game_id,
            seat=clock.seat,
            version__gt=clock.turn,
            cause=Action.Cause.AUTOPLAY,
        ).exists()
    # No sweep died on the broken game, and they played the others' turns once each.
    assert clock_stack.failed_tasks(DEADLINE_SWEEP) == []
    assert sweeps_played(clock_stack) == len(sound)

    # The admin finds it among the flagged games.
    listed = admin_client.get("/admin/games/game/", {"flagged": "yes"})
    assert [game.pk for game in listed.context["cl"].result_list] == [broken.pk]
