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

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Anything but a JSON text frame is ignored: a diagnostic must not crash on garbage.
        if not text_data:
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the limit
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        payload = content.get("payload") if isinstance(content, dict) else None
        await self.channel_layer.group_send(
            self.group_name, {"type": "ping.reply", "payload": payload}
        )

    async def ping_reply(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "pong", "payload": event["payload"]})


async def refuse_handshake(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Refuse a WebSocket handshake (the server answers 403) and end at once.

    A bare ASGI callable rather than a consumer: it holds no channel-layer subscription, so a
    flood of refused handshakes costs next to nothing, and nothing is left waiting on the
    channel layer when the client goes (a refused consumer's pending Redis read could hang
    its event loop's shutdown).
    """
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close"})


async def refuse_unknown_path(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any /ws/ path no consumer serves: refused quietly, where the router would raise and
    write a traceback to the error log for every stray probe."""
    await refuse_handshake(scope, receive, send)
