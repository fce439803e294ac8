"""Live updates come in the language of the page they update: the profile's, else the
switcher's cookie, else the browser's (remi_site/socket_locale.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.play import services
from games.tables import lifecycle
from remi_site.asgi import application
from remi_site.socket_locale import scope_language
from tests.games.test_lobby_consumer import HOST, ORIGIN, run

pytestmark = pytest.mark.django_db(transaction=True)


def lobby_html(*headers: tuple[bytes, bytes]) -> str:
    async def scenario() -> str:
        communicator = WebsocketCommunicator(
            application, "/ws/lobby/", headers=[ORIGIN, HOST, *headers]
        )
        connected, _ = await communicator.connect()
        assert connected
        html = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return html

    return run(scenario)


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def open_table(alice):
    return lifecycle.create_table(alice, seat_count=3)


def test_a_visitor_with_the_romanian_cookie_gets_the_lobby_in_romanian(open_table):
    html = lobby_html((b"cookie", b"django_language=ro"))
    assert "Intră în cont ca să te alături" in html
    assert "Log in to join" not in html


def test_a_romanian_browser_gets_romanian_and_an_english_one_english(open_table):
    assert "Intră în cont ca să te alături" in lobby_html((b"accept-language", b"ro-RO,ro;q=0.9"))
    english = lobby_html((b"accept-language", b"en-US,en;q=0.9"))
    assert "Log in to join" in english


def test_the_profile_outranks_the_cookie_on_a_socket(open_table, bob):
    bob.preferred_language = "hu"
    bob.save()
    session = database_sync_to_async(session_of)
    cookie = run(session, bob)
    html = lobby_html((b"cookie", f"sessionid={cookie}; django_language=ro".encode()))
    assert "Csatlakozás" in html
    assert "Alătură-te" not in html


def test_scope_language_reads_the_handshake_like_a_request():
    assert scope_language({"headers": [(b"cookie", b"django_language=hu")]}) == "hu"
    assert scope_language({"headers": [(b"accept-language", b"ro")]}) == "ro"
    assert scope_language({"headers": [(b"cookie", b"django_language=xx")]}) == "en"
    assert scope_language({}) == "en"


def test_a_move_reaches_each_seat_and_spectator_in_their_own_language(alice, bob):
    """Issue 16: at one table, a Romanian player sees the move in Romanian while the other
    player sees it in English; spectators share renders only within one language."""
    from games.models import Game
    from tests.games.conftest import two_player_game

    alice.preferred_language = "ro"
    alice.save()
    game = two_player_game(alice, bob)
    sessions = {user.username: session_of(user) for user in (alice, bob)}
    path = f"/ws/games/{game.pk}/?version={game.version}"

    async def scenario() -> dict[str, str]:
        sockets = {
            "alice": [(b"cookie", f"sessionid={sessions['alice']}".encode())],
            "bob": [(b"cookie", f"sessionid={sessions['bob']}".encode())],
            "romanian visitor": [(b"cookie", b"django_language=ro")],
            "english visitor": [(b"accept-language", b"en")],
        }
        opened = {}
        for name, headers in sockets.items():
            ws = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST, *headers])
            assert (await ws.connect())[0], name
            opened[name] = ws
        fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        state = await database_sync_to_async(lambda: services.game_of(fresh.table))()
        engine_state = state.load(fresh.state)
        seat = min(state.to_act(engine_state))
        rack = fresh.state["racks"][seat].split()
        await database_sync_to_async(services.play)(
            game.pk, seat, f"discard {rack[0]}", fresh.version
        )
        frames = {}
        for name, ws in opened.items():
            frames[name] = await ws.receive_from(timeout=10)
            await ws.disconnect()
        return frames

    frames = run(scenario)
    for name in ("alice", "romanian visitor"):
        assert "Rândul pieselor aruncate" in frames[name], name
        assert "Discard row" not in frames[name], name
    for name in ("bob", "english visitor"):
        assert "Discard row" in frames[name], name
        assert "Rândul pieselor aruncate" not in frames[name], name
