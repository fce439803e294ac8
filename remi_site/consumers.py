"""A diagnostic WebSocket consumer.

``/ws/ping/`` answers each message by sending it to a group holding only this connection and
replying when the group message comes back. An answer therefore proves the whole path a game
update takes: socket -> daphne -> consumer -> channel layer (Redis) -> consumer -> socket.
"""

from __future__ import annotations

import uuid
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    group_name: str

    async def connect(self) -> None:
        self.group_name = f"ping.{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        payload = content.get("payload") if isinstance(content, dict) else None
        await self.channel_layer.group_send(
            self.group_name, {"type": "ping.reply", "payload": payload}
        )

    async def ping_reply(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "payload": event["payload"]})
