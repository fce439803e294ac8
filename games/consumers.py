"""Game WebSocket consumer.  SCAFFOLD: being built now (issue 4)."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class GameConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.close()
