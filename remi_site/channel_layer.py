"""The channel layer: channels-redis, with a connection pool that makes a burst wait its turn.

redis-py 8's pool opens at most 100 connections per process and raises MaxConnectionsError for
the next one; channels-redis takes that pool as it is.  Every channel-layer call holds a
connection while it runs, so a burst of them in one process (hundreds of pages reconnecting
after a restart, a busy minute of moves) crashed consumers, and their pages saw close code
1011.  A blocking pool of the same size queues the burst instead, for up to
``POOL_WAIT_SECONDS``.
"""

from __future__ import annotations

from typing import Any

from channels_redis import core
from redis.asyncio import BlockingConnectionPool

# Connections per process and event loop; Redis allows 10,000 clients by default.
POOL_SIZE = 100
# How long a call waits for a free connection before it fails; as long as a read may take.
POOL_WAIT_SECONDS = 15.0


class RedisChannelLayer(core.RedisChannelLayer):
    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinels or keyword hosts: channels-redis's own pool
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(
            host.pop("address"), max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS, **host
        )
