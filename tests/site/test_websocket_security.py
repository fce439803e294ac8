"""Faults 2-4 of the hostile probe: stray WebSocket paths, foreign origins, and sockets that
outlived the login they were opened with."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.sockets import LOGIN_ENDED_CLOSE_CODE
from remi_site.asgi import application
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

HOST = (b"host", b"localhost")
OWN_ORIGIN = (b"origin", b"http://localhost")


def logged_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def cookie_of(client: Client) -> tuple[bytes, bytes]:
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


async def handshake(
    path: str, headers: list[tuple[bytes, bytes]], *, sends: bool = False
) -> tuple[bool, str]:
    """Whether the socket was accepted, and the first frame it sent (empty if none).  With
    ``sends``, an accepted socket must send one: it is waited for, however loaded the machine
    (a game socket opened without a version reads the game on the database thread first)."""
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect(timeout=5)
    first = ""
    if connected and sends:
        first = await ws.receive_from(timeout=10)
    elif connected and not await ws.receive_nothing(timeout=0.5):
        first = await ws.receive_from(timeout=5)
    await ws.disconnect(
        timeout=10
    )  # a refused socket too: the server side ends when the client goes
    return connected, first


# --- Fault 2: stray paths ------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/ws/nope/",
        "/ws/games/abc/",
        "/ws/games/-1/",
        "/ws/games/1/extra/",
        "/ws/games/" + "9" * 30 + "/",
        "/ws/",
        "/",
        "/ws/lobby",
    ],
)
def test_a_websocket_path_nobody_serves_is_refused_without_an_error_logged(path, caplog):
    with caplog.at_level(logging.WARNING):
        connected, _ = async_to_sync(handshake)(path, [OWN_ORIGIN, HOST])
    assert not connected
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


# --- Fault 3: origins ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        b"http://localhost:1234",  # another program on this host
        b"http://127.0.0.1:9999",
        b"https://localhost",  # other scheme
        b"http://evil.example",
        b"http://localhost.evil.example",
        b"null",
        b"",
        b"http://localhost/path",
        b"ftp://localhost",
    ],
)
def test_a_socket_from_a_foreign_origin_gets_no_rack(alice, bob, origin):
    game = two_player_game(alice, bob)
    headers = [HOST, cookie_of(logged_in_client(alice))]
    if origin:
        headers.append((b"origin", origin))
    connected, first = async_to_sync(handshake)(f"/ws/games/{game.pk}/", headers)
    assert not connected
    assert first == ""


def test_the_sites_own_origin_gets_the_players_rack(alice, bob):
    game = two_player_game(alice, bob)
    headers = [HOST, OWN_ORIGIN, cookie_of(logged_in_client(alice))]
    connected, first = async_to_sync(handshake)(f"/ws/games/{game.pk}/", headers, sends=True)
    assert connected
    assert 'id="game-rack"' in first


@pytest.mark.parametrize(
    ("host", "origin", "accepted"),
    [
        (b"localhost:8000", b"http://localhost:8000", True),
        (b"localhost:8000", b"http://localhost:8001", False),
        (b"localhost:8000", b"http://localhost", False),
        (b"127.0.0.1:8000", b"http://127.0.0.1:8000", True),
        (b"evil.example", b"http://evil.example", False),  # not an allowed host
    ],
)
def test_the_origin_must_match_the_host_the_socket_was_opened_on(host, origin, accepted):
    headers = [(b"host", host), (b"origin", origin)]
    connected, _ = async_to_sync(handshake)("/ws/ping/", headers)
    assert connected is accepted


def test_an_origin_named_in_csrf_trusted_origins_is_accepted(settings):
    settings.ALLOWED_HOSTS = ["remi.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://remi.example.org"]
    host = (b"host", b"remi.example.org")
    assert async_to_sync(handshake)("/ws/ping/", [host, (b"origin", b"https://remi.example.org")])[
        0
    ]
    assert not async_to_sync(handshake)(
        "/ws/ping/", [host, (b"origin", b"https://remi.example.org:8443")]
    )[0]


def test_behind_a_tls_proxy_the_https_origin_is_the_sites_own(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    https = (b"origin", b"https://localhost")
    assert async_to_sync(handshake)("/ws/ping/", [HOST, https, (b"x-forwarded-proto", b"https")])[0]
    assert not async_to_sync(handshake)("/ws/ping/", [HOST, https])[0]


# --- Fault 4: sockets end with the login ---------------------------------------------------


async def open_game_socket(game, client: Client) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[HOST, OWN_ORIGIN, cookie_of(client)]
    )
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert 'id="game-rack"' in await ws.receive_from(timeout=5)
    return ws


async def closed_with(ws: WebsocketCommunicator) -> int | None:
    message = await ws.receive_output(timeout=5)
    return message.get("code") if message["type"] == "websocket.close" else None


def test_logging_out_closes_that_sessions_sockets_but_not_another_devices(alice, bob):
    game = two_player_game(alice, bob)
    phone, laptop = logged_in_client(alice), logged_in_client(alice)

    async def scenario() -> tuple[int | None, bool]:
        on_phone = await open_game_socket(game, phone)
        on_laptop = await open_game_socket(game, laptop)
        response = await sync_to_async(phone.post)("/accounts/logout/")
        assert response.status_code == 302
        code = await closed_with(on_phone)
        laptop_quiet = await on_laptop.receive_nothing(timeout=0.5)
        await on_laptop.disconnect(timeout=10)
        return code, laptop_quiet

    code, laptop_quiet = async_to_sync(scenario)()
    assert code == LOGIN_ENDED_CLOSE_CODE
    assert laptop_quiet  # the laptop's session is still logged in


def test_a_new_password_or_a_deactivated_account_closes_every_socket_of_the_user(alice, bob):
    game = two_player_game(alice, bob)

    def change_password() -> None:
        alice.set_password("a brand new password 42")
        alice.save()

    def deactivate() -> None:
        alice.is_active = False
        alice.save()

    async def closed_by(change, client: Client) -> int | None:
        ws = await open_game_socket(game, client)
        await sync_to_async(change)()
        code = await closed_with(ws)
        await ws.disconnect(timeout=10)
        return code

    # A client logged in after the password change: the first one's session ended with it.
    for change in (change_password, deactivate):
        assert async_to_sync(closed_by)(change, logged_in_client(alice)) == LOGIN_ENDED_CLOSE_CODE


def test_saving_a_profile_field_keeps_the_sockets_open(alice, bob):
    game = two_player_game(alice, bob)

    client = logged_in_client(alice)

    async def scenario() -> bool:
        ws = await open_game_socket(game, client)
        alice.display_name = "Alice the Bold"
        await sync_to_async(alice.save)()
        quiet = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect(timeout=10)
        return quiet

    assert async_to_sync(scenario)()


def test_ending_sessions_from_the_admin_closes_sockets_and_logs_the_user_out(
    alice, bob, admin_user
):
    game = two_player_game(alice, bob)
    player = logged_in_client(alice)
    organiser = logged_in_client(admin_user)

    async def scenario() -> int | None:
        ws = await open_game_socket(game, player)
        response = await sync_to_async(organiser.post)(
            "/admin/accounts/user/",
            {"action": "end_sessions", "_selected_action": [alice.pk]},
        )
        assert response.status_code == 302
        code = await closed_with(ws)
        await ws.disconnect(timeout=10)
        return code

    assert async_to_sync(scenario)() == LOGIN_ENDED_CLOSE_CODE
    assert player.get("/profile/").status_code == 302  # sent to the login page
