"""The two NDJSON streams over HTTP, with the real Redis channel layer: the game stream sends
the seat's line at once and again after each move (told by the game's group, not by polling),
and ends with the game; the event stream sends the games being played and each invitation as
it comes."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from bot_api import play, streams
from games.models import Game
from tests.bot_api.helpers import bot_account, game_with_bot, open_table, play_for

pytestmark = pytest.mark.django_db(transaction=True)

# Bounds a lost line, not the expected time: the streams' keep-alive (and its re-read of the
# database) is put off for an hour below, so any line that comes was pushed.
PUSHED_WITHIN = 30.0


@pytest.fixture(autouse=True)
def _no_keepalive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 3600.0)


async def next_line(lines: Any) -> dict[str, Any]:
    while True:
        raw = await asyncio.wait_for(anext(lines), PUSHED_WITHIN)
        if raw.strip():
            return json.loads(raw)


def headers(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_the_game_stream_follows_every_move_to_the_end(alice) -> None:
    async_to_sync(_the_game_stream_follows_every_move_to_the_end)(alice)


async def _the_game_stream_follows_every_move_to_the_end(alice) -> None:
    robo, key = await sync_to_async(bot_account)()
    game = await sync_to_async(game_with_bot)(alice, robo, game_type="thai-rummy")
    seat = await Game.objects.select_related("table").aget(pk=game.pk)
    response = await AsyncClient().get(f"/api/bot/game/{game.pk}/stream", headers=headers(key))
    assert response["Content-Type"] == "application/x-ndjson"
    lines = aiter(response.streaming_content)

    def line_now() -> dict[str, Any]:
        current = Game.objects.select_related("table").get(pk=game.pk)
        return play.game_line(current, current.table.seats.get(user=robo))

    assert await next_line(lines) == await sync_to_async(line_now)()
    rng = random.Random(7)
    versions = []
    while True:
        seat = await Game.objects.select_related("table").aget(pk=game.pk)
        await sync_to_async(play_for)(seat, min(seat.to_act), rng)
        line = await next_line(lines)
        assert line == await sync_to_async(line_now)()
        versions.append(line["version"])
        if line["status"] != "playing":
            break
    assert versions == list(range(1, len(versions) + 1)), "a version was skipped or repeated"
    with pytest.raises(StopAsyncIteration):
        await anext(lines)


def test_the_event_stream_sends_games_and_invitations_as_they_come(alice, bob) -> None:
    async_to_sync(_the_event_stream_sends_games_and_invitations_as_they_come)(alice, bob)


async def _the_event_stream_sends_games_and_invitations_as_they_come(alice, bob) -> None:
    robo, key = await sync_to_async(bot_account)()
    game = await sync_to_async(game_with_bot)(bob, robo)
    response = await AsyncClient().get("/api/bot/stream/event", headers=headers(key))
    lines = aiter(response.streaming_content)
    assert await next_line(lines) == {
        "type": "gameStart",
        "game": game.pk,
        "table": game.table_id,
        "game_type": "remi",
    }
    table = await sync_to_async(open_table)(alice)
    invitation = await sync_to_async(play.invite)(table, alice, robo)
    event = await next_line(lines)
    assert event["type"] == "invitation" and event["id"] == invitation.pk
    assert event["from"] == "Alice"
    await lines.aclose()


def test_a_stream_of_a_game_without_the_bot_is_refused(alice, bob) -> None:
    async_to_sync(_a_stream_of_a_game_without_the_bot_is_refused)(alice, bob)


async def _a_stream_of_a_game_without_the_bot_is_refused(alice, bob) -> None:
    _robo, key = await sync_to_async(bot_account)()
    game = await sync_to_async(game_with_bot)(alice, bob)
    response = await AsyncClient().get(f"/api/bot/game/{game.pk}/stream", headers=headers(key))
    assert response.status_code == 404
