"""Races on a due clock: a player's move against the sweep, two sweeps at once.

Each racer has its own thread and database connection: truly parallel transactions on
PostgreSQL, queued on the write lock on SQLite.  Exactly one acts, the state stays valid."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Action, Game, SeatClock
from games.play import services
from games.tasks import sweep_deadlines
from tests.games.clock_helpers import correspondence_game, fresh, to_move
from tests.games.test_concurrency import race


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_a_move_and_the_sweep_on_the_same_deadline_act_once(alice, bob, attempt):
    game = correspondence_game(alice, bob, on_timeout="move")
    seat = to_move(game)
    rack = fresh(game).state["racks"][seat].split()
    with time_machine.travel(timezone.now() + timedelta(days=1, seconds=1), tick=False):
        outcomes = race(
            [
                lambda: services.play(game.pk, seat, f"discard {rack[0]}", 0),
                sweep_deadlines,
            ]
        )
    moved, swept = outcomes
    game = fresh(game)
    assert game.version == 1, outcomes
    (action,) = Action.objects.filter(game=game)
    if isinstance(moved, services.Played):
        assert swept == 0 and action.cause == ""
        assert action.notation == f"discard {rack[0]}"
    else:
        assert isinstance(moved, services.GameMovedOn), outcomes
        assert swept == 1 and action.cause == Action.Cause.TIMEOUT
    # Either way: the turn is over, one clock row ended, the next seat's clock runs.
    assert seat not in game.to_act
    assert SeatClock.objects.filter(game=game, seat=seat, ended_at__isnull=False).count() == 1
    assert SeatClock.objects.filter(game=game, ended_at__isnull=True).count() == 1
    assert len(game.state["racks"][seat].split()) == len(rack) - 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_play_each_due_clock_once(alice, bob, carol):
    games = [correspondence_game(alice, bob), correspondence_game(bob, carol)]
    games += [correspondence_game(carol, alice), correspondence_game(alice, carol)]
    owed = [to_move(g) for g in games]
    with time_machine.travel(timezone.now() + timedelta(days=1, seconds=1), tick=False):
        outcomes = race([sweep_deadlines, sweep_deadlines, sweep_deadlines])
    assert all(isinstance(o, int) for o in outcomes), outcomes
    assert sum(outcomes) == len(games)
    for game, seat in zip(games, owed, strict=True):
        assert SeatClock.objects.filter(game=game, seat=seat, timed_out=True).count() == 1
        assert seat not in Game.objects.get(pk=game.pk).to_act
