"""A burst of channel-layer calls in one process waits for connections instead of failing.

redis-py 8's default pool raises MaxConnectionsError past 100 connections, and channels-redis
used it as it was: the bench's 200 tables moving at once crashed consumers (close code 1011)
with "Too many connections".  Against the suite's real Redis, three times the pool's size of
group sends at once: the stock layer fails, the site's layer delivers every message."""

from __future__ import annotations

import asyncio

import pytest
from channels_redis.core import RedisChannelLayer as StockLayer
from django.conf import settings
from redis.exceptions import MaxConnectionsError

from remi_site.channel_layer import POOL_SIZE, RedisChannelLayer

BURST = POOL_SIZE * 3


def layer_config() -> dict:
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    # Every message of the burst goes to one channel: room for all of them.
    return {**config, "prefix": "remi-burst-test", "capacity": BURST}


async def burst(layer) -> list[int]:
    channel = await layer.new_channel()
    await layer.group_add("burst", channel)
    try:
        await asyncio.gather(
            *(layer.group_send("burst", {"type": "burst.n", "n": n}) for n in range(BURST))
        )
        return sorted([(await layer.receive(channel))["n"] for _ in range(BURST)])
    finally:
        await layer.flush()


def test_the_sites_layer_is_the_waiting_one():
    assert (
        settings.CHANNEL_LAYERS["default"]["BACKEND"] == "remi_site.channel_layer.RedisChannelLayer"
    )


def test_a_burst_past_the_pool_size_is_delivered_whole():
    assert asyncio.run(burst(RedisChannelLayer(**layer_config()))) == list(range(BURST))


def test_the_stock_layer_fails_the_same_burst():
    with pytest.raises(MaxConnectionsError):
        asyncio.run(burst(StockLayer(**layer_config())))
