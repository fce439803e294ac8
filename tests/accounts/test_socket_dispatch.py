"""A socket's message whose handler needs no database is handled at once, even while the
thread the sockets share for database work is busy (a long render): nothing on the way to the
handler waits for that thread."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from accounts.sockets import LOGIN_ENDED_CLOSE_CODE
from tests.accounts.test_socket_sends import SOCKETS


def handled_while_the_database_thread_is_busy(consumer_class, message: dict) -> list[dict]:
    sent: list[dict] = []

    async def server_send(event: dict) -> None:
        sent.append(event)

    consumer = consumer_class()
    consumer.base_send = server_send
    release = threading.Event()

    async def scenario() -> None:
        busy = asyncio.ensure_future(sync_to_async(release.wait)())
        await asyncio.sleep(0.05)  # the shared thread is now inside the wait
        try:
            await asyncio.wait_for(consumer.dispatch(message), timeout=2)
        finally:
            release.set()
            await busy

    async_to_sync(scenario)()
    return sent


@pytest.mark.parametrize("consumer_class", SOCKETS)
def test_a_login_that_ended_closes_the_socket_without_waiting_for_the_database_thread(
    consumer_class,
):
    sent = handled_while_the_database_thread_is_busy(consumer_class, {"type": "login.ended"})
    assert sent == [{"type": "websocket.close", "code": LOGIN_ENDED_CLOSE_CODE}]


@pytest.mark.parametrize("consumer_class", SOCKETS)
def test_a_message_no_handler_knows_is_refused(consumer_class):
    with pytest.raises(ValueError, match=r"No handler for message type no\.such"):
        handled_while_the_database_thread_is_busy(consumer_class, {"type": "no.such"})
