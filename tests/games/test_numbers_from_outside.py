"""Fault 1 of the hostile probe: digits that are not ASCII (``²``, ``٣``...) crashed four
places with a 500. Every number from outside is read by ``parse_natural``: a clear refusal."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games import engine
from games.models import Action, Game
from games.presenters.remi_refusals import message_for
from remi_site.asgi import application
from tests.games.test_game_replay import play_to_the_end

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize(
    "notation", ["exchange ²", "add ² R4", "pick ² R1 R2 R3", "swap ² R1 into J R2 R3"]
)
def test_the_notation_refuses_unicode_digits_as_malformed(notation):
    with pytest.raises(engine.InvalidAction) as refusal:
        engine.parse_action(notation)
    assert refusal.value.code == "not-a-number"
    assert refusal.value.params["word"] == "²"
    assert "digits 0-9" in message_for(refusal.value)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "notation", ["exchange ²", "add ² R4", "pick ² R1 R2 R3", "swap ² R1 into J R2 R3"]
)
def test_a_typed_move_with_unicode_digits_is_refused_and_changes_nothing(
    client, alice, bob, started, notation
):
    mover = [alice, bob][started.state["first_player"]]
    client.force_login(mover)
    response = client.post(
        f"/games/{started.pk}/act/",
        {"version": 0, "verb": "notation", "notation": notation},
        **HTMX,
    )
    assert response.status_code == 200
    assert "digits 0-9" in response.content.decode()
    game = Game.objects.get(pk=started.pk)
    assert (game.version, game.state) == (0, started.state)
    assert not Action.objects.filter(game=started).exists()


@pytest.mark.django_db
def test_a_replay_step_in_unicode_digits_is_a_400_naming_the_format(client, carol, started):
    finished = play_to_the_end(started)
    client.force_login(carol)
    response = client.get(f"/games/{finished.pk}/replay/", {"step": "²"})
    assert response.status_code == 400
    assert "digits" in response.content.decode()
    assert client.get(f"/games/{finished.pk}/replay/", {"step": "1"}).status_code == 200


def _cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


@pytest.mark.django_db(transaction=True)
def test_a_game_socket_with_a_unicode_version_catches_up_from_the_start(alice, bob, started):
    cookie = _cookie(alice)

    async def scenario() -> str:
        ws = WebsocketCommunicator(
            application, f"/ws/games/{started.pk}/?version=%C2%B2", headers=[*SITE, cookie]
        )
        connected, _ = await ws.connect()
        assert connected
        html = await ws.receive_from(timeout=5)  # read as "no version": the whole position
        await ws.disconnect(timeout=10)
        return html

    assert 'id="game-rack"' in async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_lobby_socket_with_a_unicode_table_number_shows_the_lobby(alice):
    async def scenario() -> str:
        ws = WebsocketCommunicator(application, "/ws/lobby/?table=%C2%B2", headers=SITE)
        connected, _ = await ws.connect()
        assert connected
        html = await ws.receive_from(timeout=5)
        await ws.disconnect(timeout=10)
        return html

    assert 'id="open-tables"' in async_to_sync(scenario)()  # the lobby, not a table page
