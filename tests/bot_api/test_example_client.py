"""Issue 33, acceptance 2: the example client (examples/bot_client.py), run as a separate
process with a token, plays a whole game of each of the four games through the API, against
a built-in bot and a person the test plays for, on the real stack: daphne, a Celery worker
(the built-in bot), Redis (the channel layer that pushes each move to the client's streams).

Each person invites the bot account to their table from the table's invite form; the client
hears the invitation on its event stream and accepts it; the person starts the table; the
client hears the game start, follows the game's stream and posts its moves until the end.
The test plays the person's seat through ``services.play``, the service behind the game
page's moves."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client

from bot_api.models import Invitation
from games.engine import GAMES
from games.models import Action, Game, Table
from games.play import services
from games.tables import lifecycle
from tests.bot_api.helpers import bot_account, play_for
from tests.conftest import make_user, subprocess_env, wait_for
from tests.e2e.conftest import asgi_site  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

CLIENT = Path(__file__).resolve().parents[2] / "examples" / "bot_client.py"

# Each game is one hand of about a hundred moves between three easy players; this bounds a
# stalled one (a move lost between the processes), not the expected time.
GAME_DEADLINE_SECONDS = 180


def test_the_example_client_plays_each_game_to_its_end(
    asgi_site,  # noqa: F811
    celery_worker,
) -> None:
    robo, key = bot_account()
    client = subprocess.Popen(
        [
            sys.executable,
            str(CLIENT),
            "--url",
            asgi_site.url,
            "--token",
            key,
            "--level",
            "easy",
            "--games",
            str(len(GAMES)),
        ],
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        tables = []
        for game_type in GAMES:
            person = make_user(f"host-{game_type}")
            table = lifecycle.create_table(
                person,
                game_type=game_type,
                seat_count=3,
                bots=["easy"],
                bot_speed=Table.BotSpeed.INSTANT,
            )
            page = Client()
            page.force_login(person)
            page.post(f"/tables/{table.pk}/invite-bot/", {"username": robo.username})
            tables.append((person, table))
        for _person, table in tables:
            wait_for(
                lambda t=table: t.seats.count() == 3,
                timeout=30,
                what=f"the client to accept the invitation to table {table.pk}",
            )
        assert set(Invitation.objects.values_list("status", flat=True)) == {"accepted"}
        games = [lifecycle.start_table(table, person) for person, table in tables]
        play_the_people(games)
        assert client.wait(timeout=60) == 0
    finally:
        if client.poll() is None:
            client.kill()
        output = client.stdout.read() if client.stdout else ""
        print(f"--- client ---\n{output}")
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        robo_seat = game.table.seats.get(user=robo).position
        assert robo_seat == 2 and game.table.seats.get(position=2).bot == ""
        made = Action.objects.filter(game=game, seat=robo_seat)
        # The bot account's moves were its own, through the API, none by the clock.
        assert made.count() >= 3
        assert set(made.values_list("cause", flat=True)) == {Action.Cause.PLAYER}
        assert Action.objects.filter(game=game, seat=1, cause=Action.Cause.BOT).exists()
        assert f"game over {game.pk}" in output


def play_the_people(games: list[Game]) -> None:
    """Play seat 0 of every game whenever it is owed, until every game is over."""
    rng = random.Random(33)
    started = time.monotonic()
    while True:
        live = Game.objects.select_related("table").filter(
            pk__in=[g.pk for g in games], status=Game.Status.PLAYING
        )
        if not live:
            return
        assert time.monotonic() - started < GAME_DEADLINE_SECONDS, [
            (g.pk, g.version, g.to_act) for g in live
        ]
        owed = [g for g in live if 0 in g.to_act]
        for game in owed:
            # Another seat may move at the same time (Remi's prelude): read it again.
            with contextlib.suppress(services.GameMovedOn):
                play_for(game, 0, rng)
        if not owed:
            time.sleep(0.02)
