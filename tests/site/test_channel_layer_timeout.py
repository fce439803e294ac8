"""An idle WebSocket keeps its consumer: the channel layer's reads outlast its blocking pop.

channels-redis waits for a consumer's next message with BZPOPMIN for ``brpop_timeout``
seconds; redis-py 8 gives every read a 5-second socket timeout by default, so without a longer
one each idle consumer died with "Timeout reading from ..." and its page had to reconnect.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from django.conf import settings

from remi_site.redis_urls import redis_settings


def test_channel_layer_reads_wait_longer_than_its_blocking_pop():
    for layers in (
        settings.CHANNEL_LAYERS,
        redis_settings("redis://127.0.0.1:6379/0").channel_layers,
    ):
        for host in layers["default"]["CONFIG"]["hosts"]:
            assert host["socket_timeout"] > RedisChannelLayer.brpop_timeout + 1
