"""The channel layer: channels-redis, with a connection pool that makes a burst wait its turn
and a send of several groups' messages in two round trips.

redis-py 8's pool opens at most 100 connections per process and raises MaxConnectionsError for
the next one; channels-redis takes that pool as it is.  Every channel-layer call holds a
connection while it runs, so a burst of them in one process (hundreds of pages reconnecting
after a restart, a busy minute of moves) crashed consumers, and their pages saw close code
1011.  A blocking pool of the same size queues the burst instead, for up to
``POOL_WAIT_SECONDS``.

A move announces itself to several groups (the game's, the badges of the players whose turn
came or went).  ``group_send`` makes four round trips to Redis per group, one after the other,
on the event loop the sockets share; :meth:`RedisChannelLayer.group_send_many` asks every
group's members in one and delivers everything in a second.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from channels_redis import core
from redis.asyncio import BlockingConnectionPool

# Connections per process and event loop; Redis allows 10,000 clients by default.
POOL_SIZE = 100
# How long a call waits for a free connection before it fails; as long as a read may take.
POOL_WAIT_SECONDS = 15.0

log = logging.getLogger(__name__)

# KEYS: each message's channel key (a key may repeat); ARGV: the messages, then each one's
# capacity, then each one's score, then the keys' expiry.  As channels-redis's own group send,
# a message is added unless its key is full.  Scores rise through the batch, so a channel
# receives the batch's messages in the order given.
SEND_MANY_LUA = """
local n = #KEYS
local expiry = ARGV[#ARGV]
local over_capacity = 0
for i = 1, n do
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], ARGV[2 * n + i], ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class RedisChannelLayer(core.RedisChannelLayer):
    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinels or keyword hosts: channels-redis's own pool
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(
            host.pop("address"), max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS, **host
        )

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Each ``(group, message)`` as ``group_send`` sends it, in order, in two round trips
        per Redis host for all of them: the groups' members, then the messages."""
        members = await self._members_of([group for group, _ in messages])
        # Per host: (channel key, serialized message, capacity), in the order to deliver.
        batches: dict[int, list[tuple[str, bytes, int]]] = defaultdict(list)
        for (_group, message), channels in zip(messages, members, strict=True):
            by_host, serialized, capacity = self._map_channel_keys_to_connection(channels, message)
            for index, keys in by_host.items():
                batches[index].extend((key, serialized[key], capacity[key]) for key in keys)
        now = time.time()
        for index, batch in batches.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for key in dict.fromkeys(key for key, _, _ in batch):
                pipe.zremrangebyscore(key, min=0, max=int(now) - int(self.expiry))
            # 1 µs apart: a float near today's epoch time resolves about 0.24 µs.
            scores = [now + i * 1e-6 for i in range(len(batch))]
            pipe.eval(
                SEND_MANY_LUA,
                len(batch),
                *(key for key, _, _ in batch),
                *(message for _, message, _ in batch),
                *(capacity for _, _, capacity in batch),
                *scores,
                self.expiry,
            )
            over_capacity = (await pipe.execute())[-1]
            if over_capacity:
                log.info("%s of %s channel keys over capacity", over_capacity, len(batch))

    async def _members_of(self, groups: list[str]) -> list[list[str]]:
        """Each group's channels, after dropping those past the group expiry (as
        ``group_send`` does): one pipeline per host."""
        by_host: dict[int, list[int]] = defaultdict(list)
        for i, group in enumerate(groups):
            assert self.require_valid_group_name(group), "Group name not valid"
            by_host[self.consistent_hash(group)].append(i)
        members: list[list[str]] = [[] for _ in groups]
        oldest = int(time.time()) - self.group_expiry
        for index, positions in by_host.items():
            pipe = self.connection(index).pipeline(transaction=False)
            for i in positions:
                key = self._group_key(groups[i])
                pipe.zremrangebyscore(key, min=0, max=oldest)
                pipe.zrange(key, 0, -1)
            answers = await pipe.execute()
            for n, i in enumerate(positions):
                members[i] = [name.decode("utf8") for name in answers[2 * n + 1]]
        return members
