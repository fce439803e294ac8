"""Slow games: a player who lets the move deadline pass gets the table's timeout move."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Action, Game, Table
from games.tables import lifecycle
from games.tasks import sweep_deadlines


@pytest.fixture
def slow_game(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        table = lifecycle.create_table(
            alice,
            seat_count=2,
            pace=Table.Pace.SLOW,
            move_seconds=24 * 3600,
            # Correspondence tables autoplay by default; this test is about the timeout move.
            on_timeout=Table.OnTimeout.MOVE,
            options={"doubla": False},
        )
        lifecycle.join_table(table, bob)
        return lifecycle.start_table(table, alice)


@pytest.mark.django_db
def test_a_missed_deadline_plays_the_timeout_move(slow_game):
    first = slow_game.state["first_player"]
    rack = slow_game.state["racks"][first].split()
    assert slow_game.deadline is not None
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert sweep_deadlines() == 0
    with time_machine.travel(timezone.now() + timedelta(hours=25)):
        assert sweep_deadlines() == 1
        game = Game.objects.get(pk=slow_game.pk)
        assert game.version == 1
        assert Action.objects.get(game=game).notation == f"discard {rack[-1]}"
        # The next player's clock starts now: a full day again.
        assert game.deadline > timezone.now() + timedelta(hours=23)


@pytest.mark.django_db
def test_games_without_a_time_per_move_are_never_timed_out(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        table = lifecycle.create_table(alice, seat_count=2, move_seconds=0)
        lifecycle.join_table(table, bob)
        game = lifecycle.start_table(table, alice)
    assert game.deadline is None
    with time_machine.travel(timezone.now() + timedelta(days=30)):
        assert sweep_deadlines() == 0
    assert Game.objects.get(pk=game.pk).version == 0
