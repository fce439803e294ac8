"""The backup drill (issue 31): a pg_dump taken mid-game, restored into a fresh database, and
the site's own code on the restored copy carries both games on from the same versions with the
same deadlines.  PostgreSQL only (pg_dump); the SQLite pass skips it with a message.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from games.models import Game, SeatClock, Table
from games.play import services
from remi_site.paths import BASE_DIR
from tests.conftest import database_url_for_subprocesses, subprocess_env
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

# Run by the restored site: the next move of each game, by the game's own first bot level.
NEXT_MOVES = """
import json, os, random
from games.play import services
from games.models import Game, SeatClock
out = {}
for pk in map(int, os.environ["DRILL_GAMES"].split(",")):
    game = Game.objects.select_related("table").get(pk=pk)
    before = {"version": game.version, "deadline": game.deadline and game.deadline.isoformat(),
              "clocks": sorted(str(c.due_at) for c in SeatClock.objects.filter(game=game,
                               ended_at__isnull=True))}
    engine = services.game_of(game.table)
    seat = min(game.to_act)
    action = engine.choose(engine.player_view(engine.load(game.state), seat),
                           engine.bot_levels[0], random.Random(31))
    services.play(pk, seat, action, game.version)
    out[pk] = {"before": before, "after": Game.objects.get(pk=pk).version}
print(json.dumps(out))
"""


def play_some(game: Game, moves: int) -> Game:
    import random

    engine = services.game_of(game.table)
    rng = random.Random(game.pk)
    for _ in range(moves):
        seat = min(game.to_act)
        view = engine.player_view(engine.load(game.state), seat)
        services.play(game.pk, seat, engine.choose(view, engine.bot_levels[0], rng), game.version)
        game = Game.objects.select_related("table").get(pk=game.pk)
    return game


def open_clocks(game: Game) -> list[str]:
    return sorted(str(c.due_at) for c in SeatClock.objects.filter(game=game, ended_at__isnull=True))


def test_a_dump_taken_mid_game_restores_and_both_games_go_on(
    alice, bob, carol, tmp_path, redis_server
):
    if connection.vendor != "postgresql":
        pytest.skip(
            "the backup drill needs PostgreSQL (pg_dump): set DATABASE_URL, as the "
            "PostgreSQL pass of .ci/run does"
        )
    live = play_some(two_player_game(alice, bob), 3)
    slow = play_some(two_player_game(carol, bob, pace=Table.Pace.SLOW, move_seconds=86_400), 2)
    assert slow.deadline is not None  # the drill must carry a deadline over
    expected = {
        game.pk: {
            "version": game.version,
            "deadline": game.deadline and game.deadline.isoformat(),
            "clocks": open_clocks(game),
        }
        for game in (live, slow)
    }

    assert expected[slow.pk]["clocks"], "the slow game has no running clock to carry over"

    source = database_url_for_subprocesses()
    dump = tmp_path / "remi.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", source], check=True)
    parts = urlsplit(source)
    restored_name = f"remi_drill_{uuid.uuid4().hex[:8]}"
    restored = urlunsplit(parts._replace(path=f"/{restored_name}"))
    admin = urlunsplit(parts._replace(path="/postgres"))
    subprocess.run(["psql", admin, "-qc", f'CREATE DATABASE "{restored_name}"'], check=True)
    try:
        subprocess.run(["pg_restore", "--no-owner", f"--dbname={restored}", str(dump)], check=True)
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", NEXT_MOVES],
            cwd=BASE_DIR,
            env=subprocess_env(
                DATABASE_URL=restored,
                REDIS_URL=redis_server.url,
                DRILL_GAMES=f"{live.pk},{slow.pk}",
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        result = {int(pk): v for pk, v in json.loads(done.stdout.splitlines()[-1]).items()}
    finally:
        subprocess.run(
            ["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)'],
            check=True,
        )
    for pk, want in expected.items():
        assert result[pk]["before"] == want, f"game {pk} restored differently"
        assert result[pk]["after"] == want["version"] + 1, f"game {pk} did not go on"
