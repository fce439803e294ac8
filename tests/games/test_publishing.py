"""A move's messages to the channel layer (the game's sockets, the players' badges, a
tournament's page) go out together after commit, in order, through the real Redis layer."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games.play import news, services
from notifications.badge import badge_group

pytestmark = pytest.mark.django_db(transaction=True)


async def listen(*groups: str) -> str:
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return channel


async def received(channel: str, count: int) -> list[dict]:
    layer = get_channel_layer()
    return [await asyncio.wait_for(layer.receive(channel), timeout=5) for _ in range(count)]


async def nothing_waiting(channel: str) -> bool:
    try:
        await asyncio.wait_for(get_channel_layer().receive(channel), timeout=0.3)
    except TimeoutError:
        return True
    return False


def test_messages_published_together_are_sent_at_the_end_in_order():
    async def scenario() -> tuple[bool, list[str], list[str]]:
        channel = await listen("together-a", "together-b")

        def publish_together() -> None:
            with news.publishing_together():
                news.publish("together-a", {"type": "first.one"})
                with news.publishing_together():  # nested: the outer block sends
                    news.publish("together-b", {"type": "second.one"})
                news.publish("together-a", {"type": "third.one"})
                async_to_sync(check_quiet)()  # still inside: has anything gone out yet?

        async def check_quiet() -> None:
            quiets.append(await nothing_waiting(channel))

        quiets: list[bool] = []
        await sync_to_async(publish_together)()
        together = [m["type"] for m in await received(channel, 3)]
        await sync_to_async(news.publish)("together-b", {"type": "alone"})
        alone = [m["type"] for m in await received(channel, 1)]
        return quiets == [True], together, alone

    quiet, together, alone = async_to_sync(scenario)()
    assert quiet, "a message went out before the block ended"
    assert together == ["first.one", "second.one", "third.one"]
    assert alone == ["alone"]  # outside a block: sent at once


def test_a_move_tells_the_game_and_both_players_badges(alice, bob, started):
    first = started.state["first_player"]
    tile = started.state["racks"][first].split()[0]
    groups = (news.group_name(started.pk), badge_group(alice.pk), badge_group(bob.pk))

    async def scenario() -> tuple[list[dict], bool, float, float]:
        channel = await listen(*groups)
        before = time.time()
        await sync_to_async(services.play)(started.pk, first, f"discard {tile}", 0)
        after = time.time()
        messages = await received(channel, 3)
        return messages, await nothing_waiting(channel), before, after

    messages, then_quiet, before, after = async_to_sync(scenario)()
    # The news says the version, and when the move was committed (for the latency metric).
    committed_at = messages[0].pop("at")
    assert before <= committed_at <= after
    assert messages[0] == {"type": "game.updated", "version": 1}
    assert [m["type"] for m in messages[1:]] == ["waiting.changed", "waiting.changed"]
    assert then_quiet
