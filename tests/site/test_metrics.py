"""/metrics: absent without the token; after a bot-played game its counters have moved."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.test import override_settings

from games.models import Game
from games.play import services
from remi_site.metrics import REGISTRY
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db

TOKEN = "scrape-token-31"


def sample(name: str, **labels: str) -> float:
    value = REGISTRY.get_sample_value(name, labels)
    return 0.0 if value is None else value


def scraped(client, **headers: str) -> dict[str, float]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200
    text = response.content.decode()
    found = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


@override_settings(METRICS_TOKEN=TOKEN)
def test_metrics_are_404_without_the_right_token(client):
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404


def test_metrics_do_not_exist_unless_configured(client):
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@override_settings(METRICS_TOKEN=TOKEN)
def test_a_scrape_after_a_game_shows_its_moves_and_the_answers(
    client, alice, bob, django_capture_on_commit_callbacks
):
    game = two_player_game(alice, bob)
    kind = game.table.game_type
    moves_before = sample("remi_moves_total", game=kind)
    engine = services.game_of(game.table)
    rng = random.Random(31)
    played = 0
    while game.to_act:
        seat = min(game.to_act)
        state = engine.load(game.state)
        action = engine.choose(engine.player_view(state, seat), engine.bot_levels[0], rng)
        # A move counts once committed: run what the commit runs (the test's transaction
        # is rolled back at its end instead).
        with django_capture_on_commit_callbacks(execute=True):
            services.play(game.pk, seat, action, game.version)
        played += 1
        game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    client.get("/no-such-page/")
    found = scraped(client, HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert found[f'remi_moves_total{{game="{kind}"}}'] - moves_before == played
    assert found['remi_http_requests_total{status="404"}'] >= 1
    assert found["remi_celery_queue_depth"] >= 0  # the broker answered
    assert found["remi_oldest_due_deadline_age_seconds"] == 0  # an untimed table
    assert any(re.match(r"process_resident_memory_bytes", name) for name in found)


def test_open_sockets_are_counted_by_kind_while_they_are_open():
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from remi_site.asgi import application

    def lobby_sockets() -> float:
        return sample("remi_open_sockets", kind="lobby")

    before = lobby_sockets()

    async def run() -> tuple[float, float]:
        ws = WebsocketCommunicator(
            application,
            "/ws/lobby/",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
        )
        assert (await ws.connect())[0]
        during = lobby_sockets()
        await ws.disconnect()
        return during, lobby_sockets()

    during, after = async_to_sync(run)()
    assert (during, after) == (before + 1, before)


@pytest.mark.django_db(transaction=True)
def test_a_move_reaching_the_other_seat_is_timed_and_the_movers_own_page_is_not(alice, bob):
    # The move's news carries its commit time; the other seat's socket sends it and counts
    # the latency once.  The mover's page, answered on its own socket, counts nothing.
    from asgiref.sync import async_to_sync

    from tests.games.test_game_consumer import session_cookie, socket

    game = two_player_game(alice, bob)
    first = game.state["first_player"]
    cookies = [session_cookie(alice), session_cookie(bob)]
    count_before = sample("remi_move_to_seat_seconds_count")
    sum_before = sample("remi_move_to_seat_seconds_sum")

    async def scenario() -> None:
        sockets = [socket(game, cookie, "?version=0") for cookie in cookies]
        for ws in sockets:
            assert (await ws.connect())[0]
        tile = game.state["racks"][first].split()[0]
        await sockets[first].send_to(
            text_data=json.dumps({"version": "0", "verb": "discard", "tiles": tile})
        )
        for ws in sockets:
            assert 'data-version="1"' in await ws.receive_from(timeout=5)
        for ws in sockets:
            assert await ws.receive_nothing(timeout=0.3)
            await ws.disconnect()

    async_to_sync(scenario)()
    assert sample("remi_move_to_seat_seconds_count") - count_before == 1
    spent = sample("remi_move_to_seat_seconds_sum") - sum_before
    assert 0 < spent < 10
