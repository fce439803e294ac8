"""Bot turns run in Celery: keyed by (game, version), stale work does nothing, and a worker
killed in the middle of a game loses no turn once a worker is back and the sweep runs."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest
from kombu.exceptions import OperationalError

from games.engine import GAMES, remi
from games.engine.remi.state import State
from games.models import Action, Game, Seat, Table
from games.play import services
from games.tables import lifecycle
from games.tasks import bot_move, sweep_bot_turns
from remi_site.paths import BASE_DIR
from tests.conftest import (
    database_url_for_subprocesses,
    stop_process_group,
    subprocess_env,
    wait_for,
)


def bot_table(owner, levels: list[str], **options) -> Table:
    """A table whose every seat is a bot (as the admin may set up for a tournament)."""
    table = Table.objects.create(
        owner=owner,
        rules=remi.PRESETS["remi"].with_options(**options).to_dict(),
        seat_count=len(levels),
    )
    for position, level in enumerate(levels):
        Seat.objects.create(table=table, position=position, bot=level)
    return table


def start(table: Table) -> Game:
    return lifecycle.start_table(table, table.owner)


def versions(game: Game) -> list[int]:
    return list(Action.objects.filter(game=game).values_list("version", flat=True))


@pytest.mark.django_db
def test_a_bot_task_plays_one_action_for_the_bot_that_owes_it(
    alice, django_capture_on_commit_callbacks
):
    table = bot_table(alice, ["normal", "easy"], doubla=False)
    with django_capture_on_commit_callbacks(execute=False):
        game = start(table)
    assert game.waiting_for_bot
    bot_move(game.pk, 0)
    game.refresh_from_db()
    assert game.version == 1
    action = Action.objects.get(game=game)
    state = State.from_dict(game.state)
    assert action.seat == state.first_player
    # The opener discards; a bot holding the exposed tile's twin declares it first.
    if action.notation == "declare":
        assert state.declared[action.seat]
        assert state.exposed_tile in state.racks[action.seat]
    else:
        assert action.notation.startswith("discard ")
        assert len(state.racks[action.seat]) == 14


@pytest.mark.django_db
def test_a_stale_or_repeated_bot_task_does_nothing(alice, django_capture_on_commit_callbacks):
    table = bot_table(alice, ["easy", "easy"], doubla=False)
    with django_capture_on_commit_callbacks(execute=False):
        game = start(table)
        bot_move(game.pk, 0)
        before = Game.objects.get(pk=game.pk).state
        assert bot_move(game.pk, 0) == "stale"  # the same task delivered twice
        assert bot_move(game.pk, 7) == "stale"  # a version that never existed
    game.refresh_from_db()
    assert game.version == 1 and game.state == before
    assert versions(game) == [1]


@pytest.mark.django_db
def test_no_bot_task_acts_for_a_person(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
        lifecycle.join_table(table, bob)
        game = start(table)
    assert not game.waiting_for_bot
    assert bot_move(game.pk, 0) == "no bot owes a move"
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_a_bot_only_game_to_the_end(alice, celery_worker):
    game = start(bot_table(alice, ["hard", "normal", "easy", "easy"]))
    wait_for(
        lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED,
        timeout=240,
        interval=0.5,
        what=f"the bots to finish game {game.pk} (worker log: {celery_worker.log})",
    )
    game.refresh_from_db()
    assert versions(game) == list(range(1, game.version + 1))
    assert game.scores is not None and len(game.scores) == 4


def spawn(args: list[str], redis_url: str, log_path, **env: str) -> subprocess.Popen[bytes]:
    out = log_path.open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "--app", "remi_site", *args],
        cwd=BASE_DIR,
        env=subprocess_env(
            REDIS_URL=redis_url, DATABASE_URL=database_url_for_subprocesses(), **env
        ),
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        stop_process_group(process)


@pytest.mark.django_db(transaction=True)
def test_killing_the_worker_mid_game_loses_no_turn(alice, redis_server, processes, tmp_path):
    log = tmp_path / "celery.log"
    sweep_env = {"BOT_SWEEP_SECONDS": "1", "BOT_STUCK_SECONDS": "2"}
    worker_args = ["worker", "--pool", "solo", "--without-gossip", "--without-mingle", "-l", "INFO"]
    worker = spawn([*worker_args, "-n", "first@localhost"], redis_server.url, log, **sweep_env)
    processes.append(worker)
    game = start(bot_table(alice, ["normal", "normal", "easy", "easy"]))
    wait_for(
        lambda: Game.objects.get(pk=game.pk).version >= 12,
        timeout=90,
        what=f"bots to make some moves (log: {log})",
    )
    worker.send_signal(signal.SIGKILL)  # no warm shutdown: whatever it held is lost
    worker.wait(timeout=10)
    stop_process_group(worker)
    halted = Game.objects.get(pk=game.pk)
    assert halted.status == Game.Status.PLAYING

    processes.append(
        spawn([*worker_args, "-n", "second@localhost"], redis_server.url, log, **sweep_env)
    )
    beat_schedule = tmp_path / "beat-schedule"
    processes.append(
        spawn(["beat", "-s", str(beat_schedule), "-l", "INFO"], redis_server.url, log, **sweep_env)
    )
    wait_for(
        lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED,
        timeout=240,
        interval=0.5,
        what=f"the game to finish after the restart (log: {log})",
    )
    game.refresh_from_db()
    assert game.version > halted.version
    assert versions(game) == list(range(1, game.version + 1))  # every turn once, none lost


@pytest.mark.django_db
def test_the_sweep_requeues_only_bot_turns_that_waited_too_long(alice, settings):
    settings.BOT_STUCK_SECONDS = 60
    game = start(bot_table(alice, ["easy", "easy"], doubla=False))
    assert sweep_bot_turns() == 0  # fresh: the after-commit task is still expected
    Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at.replace(year=2000))
    assert sweep_bot_turns() == 1


@pytest.mark.django_db
def test_a_broker_outage_after_a_move_loses_no_bot_turn(
    alice, settings, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """The person's move is saved and answered although the bot's task cannot be queued;
    the bot sweep queues it once the broker is back."""
    with django_capture_on_commit_callbacks(execute=False):
        table = lifecycle.create_table(
            alice, seat_count=2, bots=["easy"], options={"doubla": False}
        )
        game = start(table)
    while game.waiting_for_bot:  # the bot opened: let it finish its turn
        bot_move(game.pk, game.version)
        game.refresh_from_db()
    (seat,) = game.to_act
    rules = GAMES["remi"]

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(bot_move, "apply_async", broker_down)
    played = 0
    while not game.waiting_for_bot:  # the person's turn, action by action (draw, discard)
        move = str(rules.timeout_action(rules.load(game.state), seat))
        with django_capture_on_commit_callbacks(execute=True):
            services.play(game.pk, seat, move, game.version)
        game.refresh_from_db()
        played += 1
    last = Action.objects.filter(game=game).latest("version")
    assert played and last.seat == seat and last.version == game.version  # saved
    assert "could not queue the bot's move" in caplog.text

    monkeypatch.undo()
    settings.BOT_STUCK_SECONDS = 0
    Game.objects.filter(pk=game.pk).update(updated_at=game.updated_at.replace(year=2000))
    assert sweep_bot_turns() == 1
