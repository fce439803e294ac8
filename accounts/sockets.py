"""A WebSocket lives no longer than the login it was opened with.

Each socket joins a group for its session and one for its user. Logging out closes the
session's sockets; deactivating a user, changing their password or ending their sessions from
the admin closes all of theirs. The browser then reconnects as whoever it now is.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    # The consumer class the mixin is mixed into, so that mypy knows what ``super()`` and
    # ``self`` offer (the scope, the channel layer, ``close``); at run time, a plain mixin.
    from channels.generic.websocket import AsyncWebsocketConsumer as _Consumer
else:
    _Consumer = object

# Sent to the browser when its login ended; 4000-4999 are the codes left to applications.
LOGIN_ENDED_CLOSE_CODE = 4401


def session_group(session_key: str) -> str:
    # The session key is a credential: only a digest of it goes into Redis.
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _groups_of(scope: dict[str, Any]) -> list[str]:
    groups = []
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    if key:
        groups.append(session_group(key))
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        groups.append(user_group(user.pk))
    return groups


class LoginBoundSocket(_Consumer):
    """Mixin for ``AsyncWebsocketConsumer``: call :meth:`bind_to_login` in ``connect`` and
    :meth:`unbind_from_login` in ``disconnect``.  Every site socket has it, so it also keeps a
    page that leaves mid-update from crashing its socket (:meth:`send`)."""

    login_groups: tuple[str, ...] = ()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first closes stale database connections in the one thread
        # every socket's database work shares: a hop there and back for every message of
        # every socket, queued behind that thread's renders, even when the handler reads
        # nothing.  Our handlers reach the database only through database_sync_to_async,
        # which closes them around each call itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def bind_to_login(self) -> None:
        self.login_groups = tuple(_groups_of(self.scope))
        for group in self.login_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def unbind_from_login(self) -> None:
        for group in self.login_groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def login_ended(self, event: dict[str, Any]) -> None:
        await self.close(code=LOGIN_ENDED_CLOSE_CODE)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        # A consumer handles one message at a time, so a browser that starts closing the
        # socket (a reload, the next game) while an update is rendered is only heard of after
        # the send; daphne then raises.  The page that left needs nothing more.
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            return


def _close_group(group: str) -> None:
    async_to_sync(get_channel_layer().group_send)(group, {"type": "login.ended"})


def close_session_sockets(session_key: str) -> None:
    _close_group(session_group(session_key))


def close_user_sockets(user_id: int) -> None:
    _close_group(user_group(user_id))
