"""The chat socket, through the real Redis channel layer and the session login: a line
reaches the sockets of its room only, never a muter's, and a moderator's removal takes it off
every page; strangers and visitors are refused at the handshake."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from chat import services
from chat.models import ChatMessage, ChatMute
from games.models import Game
from remi_site.asgi import application
from tests.games.conftest import two_player_game
from tests.games.test_game_consumer import HOST, ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def chat_socket(game: Game, cookie) -> WebsocketCommunicator:
    headers = [ORIGIN, HOST] + ([cookie] if cookie else [])
    return WebsocketCommunicator(application, f"/ws/games/{game.pk}/chat/", headers=headers)


def post(game: Game, user, seat: int | None, text: str) -> ChatMessage:
    return services.post(game, services.reader_of(game, user.pk, seat), text=text)


def test_lines_reach_their_room_only_and_removals_reach_everyone(alice, bob, carol):
    game = two_player_game(alice, bob)
    ChatMute.objects.create(user=bob, muted=alice)
    cookies = {"alice": session_cookie(alice), "bob": session_cookie(bob)}
    cookies["carol"] = session_cookie(carol)

    async def scenario() -> dict[str, list[str]]:
        sockets = {name: chat_socket(game, cookie) for name, cookie in cookies.items()}
        for ws in sockets.values():
            connected, _ = await ws.connect()
            assert connected
        said = await database_sync_to_async(post)(game, alice, 0, "<b>hi</b> from alice")
        await database_sync_to_async(post)(game, carol, None, "from carol")
        received = {name: [] for name in sockets}
        received["alice"].append(await sockets["alice"].receive_from(timeout=5))
        received["carol"].append(await sockets["carol"].receive_from(timeout=5))
        await database_sync_to_async(services.remove)(
            ChatMessage.objects.filter(pk=said.pk), timezone.now()
        )
        for name, ws in sockets.items():
            received[name].append(await ws.receive_from(timeout=5))
            assert await ws.receive_nothing(timeout=0.3)
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    said = ChatMessage.objects.get(author=alice)
    line = received["alice"][0]
    assert line.startswith('<ol id="chat-lines" hx-swap-oob="beforeend"><li id="chat-')
    assert "&lt;b&gt;hi&lt;/b&gt; from alice" in line and "from carol" not in line
    assert "from carol" in received["carol"][0] and "alice" not in received["carol"][0].lower()
    # Bob muted Alice and sees neither her line nor the spectators' one: only the removal.
    removal = f'<li id="chat-{said.pk}" hx-swap-oob="delete"></li>'
    assert received["bob"] == [removal]
    assert received["alice"][1] == removal and received["carol"][1] == removal


def test_strangers_and_visitors_are_refused(alice, bob, carol):
    game = two_player_game(alice, bob, is_public=False)

    stranger = session_cookie(carol)

    async def scenario() -> list[bool]:
        results = []
        for cookie in (stranger, None):
            ws = chat_socket(game, cookie)
            connected, _ = await ws.connect()
            results.append(connected)
            await ws.disconnect()
        return results

    assert async_to_sync(scenario)() == [False, False]
