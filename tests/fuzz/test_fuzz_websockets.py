"""Fuzzing the WebSocket entry points: every route's URL and query string, odd paths,
whatever frames a client may send (text, binary, huge), and many sockets from one client.

Properties: the application never raises and nothing is logged at ERROR; a socket either is
refused at the handshake or stays usable; past the caps of one address or one session a socket
is closed at once with the documented code, below them never, and other clients' sockets work
meanwhile; after the run a legal move still reaches a socket.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from games.engine import GAMES
from games.models import Game
from games.play import services
from remi_site.asgi import application
from remi_site.socket_limits import TOO_MANY_SOCKETS_CLOSE_CODE, address_key
from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text, query
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

T = TypeVar("T")

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]

frames = st.lists(
    st.one_of(
        st.tuples(st.just("text"), any_text),
        st.tuples(
            st.just("text"),
            st.recursive(
                st.none() | st.integers() | any_text,
                lambda inner: (
                    st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3)
                ),
                max_leaves=6,
            ).map(json.dumps),
        ),
        st.tuples(st.just("bytes"), st.binary(max_size=64)),
        st.tuples(st.just("bytes"), st.integers(1_000, 100_000).map(lambda n: b"\xff" * n)),
    ),
    max_size=3,
)


def cookie_of(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


@pytest.fixture
def game(alice, bob) -> Game:
    return two_player_game(alice, bob)


@pytest.fixture
def cookies(alice, carol) -> dict[str, list[tuple[bytes, bytes]]]:
    return {"player": [cookie_of(alice)], "spectator": [cookie_of(carol)], "anonymous": []}


@pytest.fixture
def bobs(bob) -> tuple[bytes, bytes]:
    """The session cookie of Bob, the game's other player."""
    return cookie_of(bob)


def query_string(params: dict, raw: str | None) -> str:
    if raw is not None:
        return quote(raw, safe="=&?%/")
    return urlencode(params, doseq=True)


async def exercise(path: str, headers: list, sent: list[tuple[str, object]]) -> bool:
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect(timeout=5)
    if connected:
        for kind, payload in sent:
            # Raw ASGI messages: the communicator's helpers refuse an empty frame, a browser
            # does not.
            await ws.send_input({"type": "websocket.receive", kind: payload})
        # Whatever the socket sent so far are updates: nothing closed it.
        while not await ws.receive_nothing(timeout=0):
            message = await ws.receive_output(timeout=1)
            assert message["type"] == "websocket.send", message
    await ws.disconnect(timeout=10)  # re-raises anything the consumer raised meanwhile
    return connected


@pytest.fixture
def event_loop_thread() -> Iterator[Callable[[Coroutine[Any, Any, T]], T]]:
    """One event loop for a whole test, in a thread: the channel layer keeps a lock and a
    receive loop per event loop, and a loop per example (``async_to_sync``) would abandon them
    mid-receive."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def run(coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=60)

    yield run

    async def finish() -> None:
        pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    run(finish())
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


@pytest.fixture
def in_process_channel_layer(settings) -> Iterator[None]:
    """Channels' in-process layer for the fuzz examples.

    channels-redis serves every consumer of a process from one blocking pop; a consumer that
    leaves while it holds that pop stops only when the pop returns (up to 5 s), and cancelling
    it instead left the layer wedged for later examples. The examples are about what the
    consumers make of hostile input, so they run on the in-process layer; the socket tests
    elsewhere (and the last test here) run on Redis.
    """
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@fuzz_settings(3000)
@given(
    data=st.data(),
    route=st.sampled_from(["game", "lobby", "ping", "other"]),
    viewer=st.sampled_from(["player", "spectator", "anonymous"]),
    params=query,
    raw_query=st.one_of(st.none(), any_text),
    sent=frames,
)
def test_fuzz_every_websocket_route_and_frame(
    game,
    cookies,
    error_log,
    count_input,
    in_process_channel_layer,
    event_loop_thread,
    data,
    route,
    viewer,
    params,
    raw_query,
    sent,
):
    count_input()
    if route == "game":
        path = f"/ws/games/{data.draw(st.sampled_from([game.pk] * 4 + [game.pk + 1000, 0]))}/"
    elif route == "lobby":
        path = "/ws/lobby/"
    elif route == "ping":
        path = "/ws/ping/"
    else:
        path = "/ws/" + quote(data.draw(any_text), safe="/")[:2000]
    qs = query_string(params, raw_query)[:4000]
    full = f"{path}?{qs}" if qs else path
    event_loop_thread(exercise(full, SITE + cookies[viewer], sent))
    assert error_log.take() == []


# --- Many sockets from one client --------------------------------------------------------

# The caps the example clients meet (remi_site/socket_limits.py); low, so that a few sockets
# reach them.
ADDRESS_CAP = 4
SESSION_CAP = 3
# Someone else, elsewhere: never one of the generated clients (see ``other_address``).
OTHERS = ("192.0.2.77", "2001:db8:ffff:ffff::77")

socket_kinds = st.sampled_from(
    ["lobby", "table", "game", "chat", "me", "ping", "tournament", "other"]
)
client_addresses = st.one_of(
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(str),
    st.ip_addresses(v=4).map(lambda a: f"::ffff:{a}"),
)
forged_sessions = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters=';,"\\'),
    min_size=1,
    max_size=60,
)


def other_address(address: str) -> str:
    return next(o for o in OTHERS if address_key(o) != address_key(address))


def path_of(kind: str, game: Game, junk: str) -> str:
    return {
        "lobby": "/ws/lobby/",
        "table": f"/ws/lobby/?table={game.table_id}&seen=playing",
        "game": f"/ws/games/{game.pk}/",
        "chat": f"/ws/games/{game.pk}/chat/",
        "me": "/ws/me/",
        "ping": "/ws/ping/",
        "tournament": "/ws/tournaments/999999/",
        "other": "/ws/" + quote(junk, safe="/")[:200],
    }[kind]


def client_socket(path: str, address: str, headers: list) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, path, headers=SITE + headers)
    ws.scope["client"] = [address, 50000]  # as daphne gives it (with --proxy-headers too)
    return ws


async def first_output(ws: WebsocketCommunicator) -> dict[str, Any] | None:
    """What the server sent with the handshake's answer, if anything yet."""
    if await ws.receive_nothing(timeout=0):
        return None
    return await ws.receive_output(timeout=1)


async def one_client(
    game: Game,
    count_input: Callable[[], None],
    attempts: list[tuple[str, str]],
    address: str,
    session: list,
    others: list,
) -> None:
    """The client opens every socket of ``attempts`` and holds those it is given; past a cap
    each is closed at once with the code, and below the caps none is.  Meanwhile someone
    else's sockets work; afterwards, with every socket closed, the client may open again."""
    held: list[WebsocketCommunicator] = []
    try:
        for kind, junk in attempts:
            count_input()
            over = len(held) >= ADDRESS_CAP or (bool(session) and len(held) >= SESSION_CAP)
            ws = client_socket(path_of(kind, game, junk), address, session)
            connected, _ = await ws.connect(timeout=5)
            first = await first_output(ws) if connected else None
            if over:
                assert connected, kind
                assert first == {"type": "websocket.close", "code": TOO_MANY_SOCKETS_CLOSE_CODE}
                await ws.disconnect(timeout=10)
            elif connected and (first is None or first["type"] == "websocket.send"):
                held.append(ws)
            else:
                # Refused by the route itself (no such path, a page the viewer may not see),
                # never for the count.
                assert first is None or first.get("code") != TOO_MANY_SOCKETS_CLOSE_CODE
                await ws.disconnect(timeout=10)
        # Someone else, meanwhile: a player's rack and a ping from other addresses.
        elsewhere = other_address(address)
        rack = client_socket(f"/ws/games/{game.pk}/", elsewhere, others)
        ping = client_socket("/ws/ping/", elsewhere, [])
        for ws in (rack, ping):
            connected, _ = await ws.connect(timeout=5)
            assert connected
        assert 'id="game-rack"' in await rack.receive_from(timeout=5)
        await ping.send_json_to({"payload": 1})
        assert await ping.receive_json_from(timeout=5) == {"type": "pong", "payload": 1}
        for ws in (rack, ping):
            await ws.disconnect(timeout=10)
    finally:
        for ws in held:
            await ws.disconnect(timeout=10)
    # Every place given back: the client opens a socket again.
    again = client_socket("/ws/ping/", address, session)
    connected, _ = await again.connect(timeout=5)
    assert connected and await first_output(again) is None
    await again.disconnect(timeout=10)


@fuzz_settings(300)
@given(
    attempts=st.lists(st.tuples(socket_kinds, any_text), min_size=1, max_size=12),
    address=client_addresses,
    who=st.sampled_from(["player", "spectator", "anonymous", "forged"]),
    forged=forged_sessions,
)
def test_fuzz_many_sockets_from_one_client(
    settings,
    game,
    cookies,
    bobs,
    error_log,
    count_input,
    in_process_channel_layer,
    event_loop_thread,
    attempts,
    address,
    who,
    forged,
):
    settings.MAX_SOCKETS_PER_ADDRESS = ADDRESS_CAP
    settings.MAX_SOCKETS_PER_SESSION = SESSION_CAP
    if who == "forged":
        session = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={forged}".encode())]
    else:
        session = cookies[who]
    event_loop_thread(one_client(game, count_input, attempts, address, session, [bobs]))
    assert error_log.take() == []


def test_after_fuzzing_a_legal_move_still_reaches_the_socket(game, alice, bob, error_log):
    cookie = cookie_of(alice)
    (mover,) = game.to_act
    engine = GAMES[game.table.game_type]
    move = str(engine.timeout_action(engine.load(game.state), mover))

    async def scenario() -> str:
        ws = WebsocketCommunicator(
            application, f"/ws/games/{game.pk}/?version=0", headers=[*SITE, cookie]
        )
        connected, _ = await ws.connect(timeout=5)
        assert connected
        await ws.send_to(text_data="\x00" * 10_000)
        await ws.send_to(bytes_data=b"\xff" * 10_000)
        for _ in range(2):  # each answered with a sentence in the error area
            assert "could not read that move" in await ws.receive_from(timeout=5)
        await sync_to_async(services.play)(game.pk, mover, move, 0)
        html = await ws.receive_from(timeout=5)
        await ws.disconnect(timeout=10)
        return html

    assert 'id="game-rack"' in async_to_sync(scenario)()
    assert error_log.take() == []
