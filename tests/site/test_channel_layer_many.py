"""Several groups' messages sent at once (a move's announcements) reach exactly the channels,
in exactly the order, that one ``group_send`` per message would reach, against the suite's
real Redis: two layers stand for two web processes, whose channels share a key per process."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from remi_site.channel_layer import RedisChannelLayer

PREFIX = "remi-many-test"

# Each test takes a second or two.  A Redis that went away mid-run (seen once, under a load
# of 13) left the layer's receive retrying for good: fail the test instead of the whole run.
pytestmark = pytest.mark.timeout(60)


def make_layer(capacity: int = 100) -> RedisChannelLayer:
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    return RedisChannelLayer(**{**config, "prefix": PREFIX, "capacity": capacity})


async def drain(layer: RedisChannelLayer, channel: str) -> list[str]:
    got = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), timeout=0.3)
        except TimeoutError:
            return got
        got.append(message["text"])


async def deliveries(send_many: bool) -> dict[str, list[str]]:
    """What each of five channels on two layers receives from the same sends."""
    one, two = make_layer(), make_layer()
    try:
        a1, a2, b1 = await one.new_channel(), await one.new_channel(), await two.new_channel()
        b2, b3 = await two.new_channel(), await two.new_channel()
        members = {"game": [a1, a2, b1], "badge-x": [a2, b2], "badge-y": [b1, b3], "empty": []}
        for group, channels in members.items():
            for channel in channels:
                await (one if channel in (a1, a2) else two).group_add(group, channel)
        sends = [
            ("game", {"type": "t", "text": "move 1"}),
            ("badge-x", {"type": "t", "text": "x changed"}),
            ("empty", {"type": "t", "text": "to nobody"}),
            ("badge-y", {"type": "t", "text": "y changed"}),
            ("game", {"type": "t", "text": "move 2"}),
        ]
        if send_many:
            await one.group_send_many(sends)
        else:
            for group, message in sends:
                await one.group_send(group, message)
        names = {"a1": a1, "a2": a2, "b1": b1, "b2": b2, "b3": b3}
        return {
            name: await drain(one if channel in (a1, a2) else two, channel)
            for name, channel in names.items()
        }
    finally:
        await one.flush()


def test_each_channel_gets_its_groups_messages_in_the_order_sent():
    assert asyncio.run(deliveries(send_many=True)) == {
        "a1": ["move 1", "move 2"],
        "a2": ["move 1", "x changed", "move 2"],
        "b1": ["move 1", "y changed", "move 2"],
        "b2": ["x changed"],
        "b3": ["y changed"],
    }


def test_the_same_as_one_group_send_per_message():
    assert asyncio.run(deliveries(send_many=True)) == asyncio.run(deliveries(send_many=False))


def test_a_full_channel_gets_no_more_as_with_group_send():
    async def scenario() -> list[str]:
        layer = make_layer(capacity=2)
        try:
            channel = await layer.new_channel()
            await layer.group_add("full", channel)
            await layer.group_send_many([("full", {"type": "t", "text": str(n)}) for n in range(3)])
            return await drain(layer, channel)
        finally:
            await layer.flush()

    assert asyncio.run(scenario()) == ["0", "1"]
