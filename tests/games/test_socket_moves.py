"""Moves over the game page's open socket (``GameConsumer.receive`` → ``games.play.moves``), in
every game: the same fields as the ``act`` view, the same refusals, one answer to the mover
and one update to everyone else, and nothing changed by anything but a legal move.

Transactional: the move's announcement goes out after commit, through the real Redis
channel layer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.engine import GAMES
from games.models import Action, Game
from games.play import services
from games.play.consumers import ACTED, MAX_MOVE_FRAME
from games.play.moves import MOVED_ON, WATCHING
from games.presenters import PRESENTERS
from games.tables import lifecycle
from remi_site.asgi import application
from tests.fuzz.test_fuzz_http import START_AT_ONCE

pytestmark = pytest.mark.django_db(transaction=True)

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
UNREADABLE = "could not read that move"


def cookie_of(user) -> list[tuple[bytes, bytes]]:
    if user is None:
        return []
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())]


@pytest.fixture(params=sorted(PRESENTERS))
def game(request, alice, bob) -> Game:
    key = request.param
    table = lifecycle.create_table(
        alice, game_type=key, seat_count=2, options=START_AT_ONCE.get(key, {})
    )
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def legal_move(game: Game) -> dict[str, str]:
    fresh = Game.objects.get(pk=game.pk)
    (mover,) = fresh.to_act
    engine = GAMES[fresh.table.game_type]
    action = engine.timeout_action(engine.load(fresh.state), mover)
    return {"version": str(fresh.version), "verb": "notation", "notation": str(action)}


def snapshot(game: Game) -> tuple[int, Any, int]:
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, fresh.state, Action.objects.filter(game=game).count()


def users_of(game: Game, alice, bob) -> tuple[Any, Any]:
    (mover,) = Game.objects.get(pk=game.pk).to_act
    return ([alice, bob][mover], [alice, bob][1 - mover])


async def opened(game: Game, user) -> WebsocketCommunicator:
    cookie = await sync_to_async(cookie_of)(user)
    ws = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/?version=0", headers=[*SITE, *cookie]
    )
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


def test_a_move_over_the_socket_answers_the_mover_and_tells_the_others_once(
    game, alice, bob, carol
):
    mover, waiting = users_of(game, alice, bob)
    move = legal_move(game)

    async def scenario() -> tuple[str, str, str]:
        mine, theirs, watching = (
            await opened(game, mover),
            await opened(game, waiting),
            await opened(game, carol),
        )
        await mine.send_to(text_data=json.dumps({**move, "HEADERS": {"HX-Request": "true"}}))
        answer = await mine.receive_from(timeout=10)
        other = await theirs.receive_from(timeout=10)
        seen = await watching.receive_from(timeout=10)
        # The mover's own announcement is old news to its socket: nothing more comes.
        assert await mine.receive_nothing(timeout=0.5)
        for ws in (mine, theirs, watching):
            await ws.disconnect(timeout=10)
        return answer, other, seen

    answer, other, seen = async_to_sync(scenario)()
    assert snapshot(game)[0] == 1 and Action.objects.filter(game=game).count() == 1
    assert answer.startswith(ACTED)
    for html in (answer, other, seen):
        assert 'title="Moves played">v1<' in html
    assert not other.startswith(ACTED) and not seen.startswith(ACTED)


@pytest.mark.parametrize(
    ("who", "frame", "expected"),
    [
        ("mover", "not json", UNREADABLE),
        ("mover", "[1, 2]", UNREADABLE),
        ("mover", '{"version": 0, "verb": "draw"}', UNREADABLE),  # a number, not a field
        ("mover", '{"version": ["0"], "verb": {"a": 1}}', UNREADABLE),
        ("mover", json.dumps({"verb": "draw", "notation": "x" * MAX_MOVE_FRAME}), UNREADABLE),
        ("mover", json.dumps({"version": "\N{ARABIC-INDIC DIGIT ZERO}", "verb": "draw"}), "read"),
        ("mover", json.dumps({"version": "7", "verb": "notation", "notation": "x"}), str(MOVED_ON)),
        ("waiting", "LEGAL", "turn."),  # "It is not your turn." or "It is bob's turn."
        ("spectator", "LEGAL", str(WATCHING)),
        ("anonymous", "LEGAL", str(WATCHING)),
    ],
)
def test_anything_but_a_legal_move_is_answered_and_changes_nothing(
    game, alice, bob, carol, who, frame, expected
):
    mover, waiting = users_of(game, alice, bob)
    user = {"mover": mover, "waiting": waiting, "spectator": carol, "anonymous": None}[who]
    legal = legal_move(game)
    (mover_seat,) = game.to_act
    if frame == "LEGAL":
        frame = json.dumps(legal)
    before = snapshot(game)

    async def scenario() -> tuple[str, str]:
        ws = await opened(game, user)
        await ws.send_to(text_data=frame)
        refused = await ws.receive_from(timeout=10)
        # The socket stays open and in step: the next legal move (by HTTP) still reaches it.
        await sync_to_async(services.play)(game.pk, mover_seat, legal["notation"], 0)
        update = await ws.receive_from(timeout=10)
        await ws.disconnect(timeout=10)
        return refused, update

    refused, update = async_to_sync(scenario)()
    assert not refused.startswith(ACTED)
    assert 'id="game-error"' in refused
    assert expected in refused
    after = snapshot(game)
    assert after[0] == before[0] + 1  # only the legal move of the scenario
    assert 'title="Moves played">v1<' in update


def test_bytes_are_refused_the_same_way(game, alice, bob):
    mover, _ = users_of(game, alice, bob)
    before = snapshot(game)

    async def scenario() -> str:
        ws = await opened(game, mover)
        await ws.send_to(bytes_data=b"\xff" * 100)
        refused = await ws.receive_from(timeout=10)
        await ws.disconnect(timeout=10)
        return refused

    assert UNREADABLE in async_to_sync(scenario)()
    assert snapshot(game) == before
