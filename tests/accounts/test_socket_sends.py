"""A page that leaves while its socket's update is being rendered must not crash the socket.

A consumer handles one message at a time, so when the browser starts closing the socket (a
reload, the next game) during a render, the consumer sends before it hears of the close, and
daphne's ``send`` raises autobahn's ``Disconnected``.  That crash was logged as a server error
(seen once in a browser test's daphne log).  The server's ``send`` is the edge here: it is
given as daphne gives it, a coroutine that raises once the peer is closing."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from autobahn.exception import Disconnected

from chat.consumers import ChatConsumer
from games.play.consumers import GameConsumer
from games.tables.lobby_consumers import LobbyConsumer
from notifications.consumers import WaitingGamesConsumer
from tournaments.consumers import TournamentConsumer

SOCKETS = [GameConsumer, LobbyConsumer, ChatConsumer, WaitingGamesConsumer, TournamentConsumer]


def sent_through(consumer_class, closing: bool) -> list[dict]:
    sent: list[dict] = []

    async def server_send(message: dict) -> None:
        if closing:
            raise Disconnected("Attempt to send on a closed protocol")
        sent.append(message)

    consumer = consumer_class()
    consumer.base_send = server_send

    async def scenario() -> None:
        await consumer.send(text_data="<p>update</p>")

    async_to_sync(scenario)()
    return sent


@pytest.mark.parametrize("consumer_class", SOCKETS)
def test_an_update_for_a_page_that_is_leaving_is_dropped_quietly(consumer_class):
    assert sent_through(consumer_class, closing=True) == []


@pytest.mark.parametrize("consumer_class", SOCKETS)
def test_an_update_for_an_open_page_is_sent(consumer_class):
    assert sent_through(consumer_class, closing=False) == [
        {"type": "websocket.send", "text": "<p>update</p>"}
    ]
