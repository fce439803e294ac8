"""Faults: a game the engine cannot play is flagged and skipped, never stops the others;
missed deadlines are all applied, once, by the first sweep after a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.clocks.flags import clear_flag
from games.engine import GAMES
from games.models import Action, Game, SeatClock
from games.play import clock_runner, services
from games.tables import lifecycle
from games.tasks import bot_move, sweep_bot_turns, sweep_deadlines
from tests.games.clock_helpers import at, correspondence_game, fresh, to_move

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_deal")]

NOON = datetime(2030, 1, 9, 12, 0, tzinfo=UTC)


def test_a_game_the_engine_cannot_load_is_flagged_and_the_sweep_goes_on(alice, bob, carol):
    with at(NOON):
        broken = correspondence_game(alice, bob)
        sound = [correspondence_game(alice, carol), correspondence_game(bob, carol)]
    # Earlier deadline for the broken one, so the sweep meets it first.
    SeatClock.objects.filter(game=broken).update(
        due_at=NOON + timedelta(hours=20), deadline=NOON + timedelta(hours=20)
    )
    Game.objects.filter(pk=broken.pk).update(state={"not": "a state"})
    with at(NOON + timedelta(days=1)):
        assert sweep_deadlines() == 2
        assert sweep_deadlines() == 0  # the flagged game is not retried
    broken = fresh(broken)
    assert broken.flagged_at is not None and "cannot load" in broken.flagged_reason
    assert all(fresh(g).version > 0 for g in sound)
    # The admin clears the flag: the sweeps try the game again (and flag it again).
    clear_flag(broken.pk)
    with at(NOON + timedelta(days=1, hours=1)):
        assert sweep_deadlines() == 0
    assert fresh(broken).flagged_at is not None


def test_a_database_failure_is_backed_off_and_the_other_games_still_play(
    alice, bob, carol, monkeypatch
):
    with at(NOON):
        games = [correspondence_game(alice, bob), correspondence_game(alice, carol)]
    real_run = clock_runner.run
    failing = games[0].pk

    def run(claimed):
        if claimed.game_id == failing:
            raise RuntimeError("database went away")
        return real_run(claimed)

    monkeypatch.setattr(clock_runner, "run", run)
    with at(NOON + timedelta(days=1)):
        assert sweep_deadlines() == 1
    clock = SeatClock.objects.get(game_id=failing, ended_at__isnull=True)
    assert clock.due_at > NOON + timedelta(days=1)  # backed off: tried again later
    assert fresh(games[0]).flagged_at is None
    monkeypatch.setattr(clock_runner, "run", real_run)
    with at(clock.due_at):
        assert sweep_deadlines() == 1


def test_a_bot_whose_choice_is_refused_falls_back_to_the_timeout_move(alice, monkeypatch):
    with at(NOON):
        table = lifecycle.create_table(
            alice, seat_count=2, bots=["easy"], options={"doubla": False}
        )
        game = lifecycle.start_table(table, alice)
    engine = GAMES["remi"]
    monkeypatch.setattr(type(engine), "choose", lambda self, view, level, rng: "discard Z99")
    game = fresh(game)
    if 1 not in game.to_act:
        services.play(game.pk, 0, f"discard {game.state['racks'][0].split()[-1]}", 0)
        game = fresh(game)
    result = bot_move(game.pk, game.version)
    assert result != "flagged" and fresh(game).version == game.version + 1
    assert Action.objects.filter(game=game, seat=1, cause=Action.Cause.BOT).exists()


def test_a_bot_game_the_engine_cannot_load_is_flagged_and_left_by_the_bot_sweep(alice):
    with at(NOON):
        table = lifecycle.create_table(
            alice, seat_count=2, bots=["easy"], options={"doubla": False}
        )
        game = lifecycle.start_table(table, alice)
    game = fresh(game)
    if not game.waiting_for_bot:
        services.play(game.pk, 0, f"discard {game.state['racks'][0].split()[-1]}", 0)
        game = fresh(game)
    Game.objects.filter(pk=game.pk).update(state={"broken": True})
    assert bot_move(game.pk, game.version) == "flagged"
    assert fresh(game).flagged_at is not None
    with at(NOON + timedelta(hours=1)):
        assert sweep_bot_turns() == 0


def test_after_a_restart_the_first_sweep_applies_every_missed_deadline_once(alice, bob, carol):
    # No on-time task ever ran (the worker and the beat were down for days).
    with at(NOON):
        games = [
            correspondence_game(alice, bob, move_seconds=3600),
            correspondence_game(bob, carol, move_seconds=12 * 3600),
            correspondence_game(carol, alice, move_seconds=86400),
        ]
        owed = [to_move(g) for g in games]
    with at(NOON + timedelta(days=3)):
        # Each missed turn is played once; the turns that began with those timeouts have a
        # clock from now, so nothing cascades through the days that passed.
        assert sweep_deadlines() == 3
        assert sweep_deadlines() == 0
    for game, seat in zip(games, owed, strict=True):
        assert SeatClock.objects.filter(game=game, seat=seat, timed_out=True).count() == 1
        assert seat not in fresh(game).to_act


def test_a_claim_whose_worker_died_is_taken_over_after_the_lease(alice, bob, settings):
    with at(NOON):
        game = correspondence_game(alice, bob)
    due = NOON + timedelta(days=1)
    with at(due):
        assert clock_runner.claim_next(due) is not None  # then the worker dies
        assert sweep_deadlines() == 0
    with at(due + timedelta(seconds=settings.CLOCK_LEASE_SECONDS)):
        assert sweep_deadlines() == 1
    assert SeatClock.objects.filter(game=game, timed_out=True).count() == 1
