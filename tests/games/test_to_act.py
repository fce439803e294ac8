"""Who acts is the engine's ``to_act``, saved with every game: several seats at once in the
prelude, one seat in play, none once the game is over; the engine version is saved too.  The
migration that brought the column worked it out for games already stored."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import GAMES
from games.models import Game
from games.play import services
from games.tables import lifecycle

BEFORE = [("games", "0002_bot_sweep_fields")]
AFTER = [("games", "0003_game_to_act_and_engine_version")]


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_every_seat_not_ready_acts_in_the_prelude_then_the_first_player(alice, bob):
    table = lifecycle.create_table(alice, seat_count=2)  # doublas on: a prelude first
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    assert (game.to_act, game.phase) == ([0, 1], "prelude")
    assert game.engine_version == GAMES[table.game_type].engine_version

    services.play(game.pk, 1, "ready", 0)
    assert fresh(game).to_act == [0]
    services.play(game.pk, 0, "ready", 1)
    game = fresh(game)
    assert game.to_act == [game.state["first_player"]]
    assert game.phase == "open"


def test_no_seat_acts_once_the_game_is_over(started):
    engine = GAMES[started.table.game_type]
    state = engine.load(started.state)
    version = started.version
    while engine.to_act(state):
        seat = min(engine.to_act(state))
        action = engine.timeout_action(state, seat)
        state, _ = engine.apply(state, seat, action)
        services.play(started.pk, seat, action, version)
        version += 1
        assert fresh(started).to_act == sorted(engine.to_act(state))
    game = fresh(started)
    assert game.to_act == [] and game.status == Game.Status.FINISHED


@pytest.mark.django_db(transaction=True)
def test_the_migration_works_out_who_acts_in_stored_games():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    user = apps.get_model("accounts", "User").objects.create(username="old")
    table = apps.get_model("games", "Table").objects.create(owner=user, rules={}, seat_count=3)
    old_game = apps.get_model("games", "Game")
    states = {
        "prelude": {"phase": "prelude", "ready": [True, False, False], "turn": 1},
        "play": {"phase": "draw", "ready": [True] * 3, "turn": 2},
        "over": {"phase": "over", "ready": [True] * 3, "turn": 0},
    }
    ids = {
        name: old_game.objects.create(table=table, number=n, state=state, turn=state["turn"]).pk
        for n, (name, state) in enumerate(states.items())
    }

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new_game = executor.loader.project_state(AFTER).apps.get_model("games", "Game")
    found = {name: new_game.objects.get(pk=pk) for name, pk in ids.items()}
    assert found["prelude"].to_act == [1, 2] and found["prelude"].phase == "prelude"
    assert found["play"].to_act == [2] and found["play"].phase == "draw"
    assert found["over"].to_act == []

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
