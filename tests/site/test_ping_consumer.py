"""The diagnostic WebSocket answers through the real channel layer (Redis)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from remi_site.asgi import application

# The auth middleware looks up the (anonymous) user through the database on connect.
pytestmark = pytest.mark.django_db


async def ping_through(origin: bytes, payload: object) -> tuple[bool, object]:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", origin), (b"host", b"localhost")]
    )
    connected, _ = await communicator.connect()
    if not connected:
        return False, None
    await communicator.send_json_to({"payload": payload})
    reply = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()
    return True, reply


def test_ping_consumer_echoes_through_a_group_on_the_channel_layer():
    connected, reply = async_to_sync(ping_through)(b"http://localhost", {"n": 1})
    assert connected
    assert reply == {"type": "pong", "payload": {"n": 1}}


def test_websocket_from_a_foreign_origin_is_refused():
    connected, _ = async_to_sync(ping_through)(b"https://evil.example", "x")
    assert not connected


def test_a_frame_nested_past_the_parsers_limit_is_ignored_and_the_socket_keeps_answering():
    """Found by the websocket fuzzer: 2,047 opening brackets made json raise RecursionError,
    which crashed the consumer instead of being ignored as other garbage is."""

    async def scenario() -> tuple[bool, object]:
        communicator = WebsocketCommunicator(
            application,
            "/ws/ping/",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
        )
        connected, _ = await communicator.connect()
        assert connected
        await communicator.send_to(text_data="[" * 2047)
        quiet = await communicator.receive_nothing(timeout=0.3)
        await communicator.send_json_to({"payload": "still here"})
        reply = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return quiet, reply

    quiet, reply = async_to_sync(scenario)()
    assert quiet
    assert reply == {"type": "pong", "payload": "still here"}
