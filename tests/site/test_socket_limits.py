"""Issue 27, fault 5 (b): one client holds at most ``MAX_SOCKETS_PER_ADDRESS`` open sockets
per address and ``MAX_SOCKETS_PER_SESSION`` per session in a process; one more is accepted
and closed at once with the documented code, which the pages read as "too many open tabs".
Other clients are not affected."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from games.tables import lifecycle
from remi_site.asgi import application
from remi_site.paths import BASE_DIR
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
# The close code docs/security.md documents and the pages read as "too many open tabs"
# (remi_site.socket_limits.TOO_MANY_SOCKETS_CLOSE_CODE).
TOO_MANY_SOCKETS_CLOSE_CODE = 4429


def cookie_of(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


def socket(path: str, address: str, headers: list[tuple[bytes, bytes]] = ()):
    communicator = WebsocketCommunicator(application, path, headers=[*SITE, *headers])
    # What daphne puts in the scope: the peer's address (behind a proxy, with
    # --proxy-headers, the one X-Forwarded-For names).
    communicator.scope["client"] = [address, 40000]
    return communicator


async def answer(communicator: WebsocketCommunicator) -> tuple[int | None, str | None]:
    """The handshake's answer: the close code if the server closed the socket as it accepted
    it (else None), and the frame it sent meanwhile, if any (read it later otherwise).

    A refusal sends the accept and the close in one go, so the close is queued by the time
    the handshake is answered: nothing here waits for it."""
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    if await communicator.receive_nothing(timeout=0):
        return None, None
    message = await communicator.receive_output()
    if message["type"] == "websocket.close":
        return message["code"], None
    return None, message["text"]


async def refused_code(communicator: WebsocketCommunicator) -> int | None:
    return (await answer(communicator))[0]


async def first_frame(communicator: WebsocketCommunicator) -> str:
    """Opens a socket that must stay open and reads the first frame it is sent."""
    code, first = await answer(communicator)
    assert code is None
    return first or await communicator.receive_from(timeout=5)


async def pong(communicator: WebsocketCommunicator) -> bool:
    await communicator.send_json_to({"payload": "still here"})
    answer = await communicator.receive_json_from(timeout=5)
    return answer == {"type": "pong", "payload": "still here"}


def test_the_socket_past_the_cap_of_one_address_is_closed_with_the_documented_code(settings):
    settings.MAX_SOCKETS_PER_ADDRESS = 3

    async def scenario() -> None:
        held = [socket("/ws/ping/", "203.0.113.7") for _ in range(3)]
        for communicator in held:
            assert await refused_code(communicator) is None
        # The fourth from that address: accepted, then closed with the code at once.
        assert (
            await refused_code(socket("/ws/lobby/", "203.0.113.7")) == TOO_MANY_SOCKETS_CLOSE_CODE
        )
        assert await refused_code(socket("/ws/ping/", "203.0.113.7")) == TOO_MANY_SOCKETS_CLOSE_CODE
        # Someone else is not affected, and the first client's sockets still work.
        other = socket("/ws/ping/", "198.51.100.20")
        assert await refused_code(other) is None
        assert await pong(other)
        assert all([await pong(communicator) for communicator in held])
        # A socket closed gives its place back.
        await held.pop().disconnect()
        again = socket("/ws/ping/", "203.0.113.7")
        assert await refused_code(again) is None
        for communicator in [*held, other, again]:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_the_socket_past_the_cap_of_one_session_is_closed_whatever_its_address(
    settings, alice, bob
):
    settings.MAX_SOCKETS_PER_SESSION = 2
    game = two_player_game(alice, bob)
    alices, bobs = cookie_of(alice), cookie_of(bob)

    async def scenario() -> None:
        held = [
            socket(f"/ws/games/{game.pk}/", "203.0.113.7", [alices]),
            socket("/ws/lobby/", "203.0.113.8", [alices]),
        ]
        for communicator in held:
            await first_frame(communicator)  # the rack, the lobby
        for path in ("/ws/me/", f"/ws/games/{game.pk}/chat/", "/ws/ping/"):
            over = socket(path, "203.0.113.9", [alices])
            assert await refused_code(over) == TOO_MANY_SOCKETS_CLOSE_CODE
        # Bob, from the same address as one of Alice's sockets, still gets his rack.
        his = socket(f"/ws/games/{game.pk}/", "203.0.113.7", [bobs])
        assert 'id="game-rack"' in await first_frame(his)
        for communicator in [*held, his]:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_an_ipv6_client_counts_by_its_64_network(settings):
    from remi_site.socket_limits import address_key

    settings.MAX_SOCKETS_PER_ADDRESS = 2
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::5") != address_key("2001:db8:1:3::5")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1") == "192.0.2.1"

    async def scenario() -> None:
        held = [socket("/ws/ping/", "2001:db8:1:2::5"), socket("/ws/ping/", "2001:db8:1:2::6")]
        for communicator in held:
            assert await refused_code(communicator) is None
        next_door = socket("/ws/ping/", "2001:db8:1:2:abcd::1")
        assert await refused_code(next_door) == TOO_MANY_SOCKETS_CLOSE_CODE
        elsewhere = socket("/ws/ping/", "2001:db8:1:3::5")
        assert await refused_code(elsewhere) is None
        for communicator in [*held, elsewhere]:
            await communicator.disconnect()

    async_to_sync(scenario)()


def test_refusals_log_no_error_and_the_held_socket_keeps_its_updates(settings, caplog, alice):
    settings.MAX_SOCKETS_PER_ADDRESS = 1
    alices = cookie_of(alice)

    async def scenario() -> tuple[list[int | None], str]:
        held = socket("/ws/lobby/", "203.0.113.7")
        await first_frame(held)
        codes = [
            await refused_code(socket(path, "203.0.113.7", [alices]))
            for path in ("/ws/lobby/", "/ws/me/", "/ws/nope/", "/ws/lobby/?page=2")
        ]
        await database_sync_to_async(lifecycle.create_table)(alice, seat_count=2)
        update = await held.receive_from(timeout=5)
        await held.disconnect()
        return codes, update

    with caplog.at_level(logging.INFO):
        codes, update = async_to_sync(scenario)()
    assert codes == [TOO_MANY_SOCKETS_CLOSE_CODE] * 4
    assert 'id="open-tables"' in update and "data-table-id=" in update
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_the_page_says_too_many_open_tabs_on_the_documented_code(rf: RequestFactory):
    """The note is on every page, hidden, and the script every page loads shows it on that
    close code (the browser test in tests/e2e/test_lobby_pages.py sees it happen)."""
    from remi_site import socket_limits

    assert socket_limits.TOO_MANY_SOCKETS_CLOSE_CODE == TOO_MANY_SOCKETS_CLOSE_CODE
    request = rf.get("/")
    request.user = AnonymousUser()
    page = render_to_string("base.html", request=request)
    assert re.search(
        r'<p id="socket-limit" class="alert" role="alert" hidden>Too many open tabs', page
    )
    assert "js/site.js" in page
    script = (Path(BASE_DIR) / "static/js/site.js").read_text()
    assert f"const TOO_MANY_SOCKETS = {TOO_MANY_SOCKETS_CLOSE_CODE};" in script
    assert 'getElementById("socket-limit")' in script
