"""Fuzzing moves over the game page's socket, in every game: the action form's fields as a
page could send them, garbage, other scripts' digits and repeated keys, by each viewer.

Properties for every frame: one answer, never a crash, nothing logged at ERROR; only a real
move by a seated player changes the game (one version, one logged action), and its numbers
are written in ASCII digits; the mover's answer is marked as a move that went in, and nothing
else is.
"""

from __future__ import annotations

import json

import pytest
from channels.testing import WebsocketCommunicator
from hypothesis import given
from hypothesis import strategies as st

from games.play.consumers import ACTED
from games.presenters import presenter_for
from remi_site.asgi import application
from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text, form_data, is_ascii_number, number_fields
from tests.fuzz.test_fuzz_http import game, mover_of, snapshot  # noqa: F401  (fixture)
from tests.fuzz.test_fuzz_websockets import (  # noqa: F401  (fixtures)
    SITE,
    cookie_of,
    event_loop_thread,
    in_process_channel_layer,
)

pytestmark = pytest.mark.django_db(transaction=True)

VIEWERS = ("mover", "waiting", "spectator", "anonymous")


@pytest.fixture
def cookies(alice, bob, carol, game):  # noqa: F811
    first = mover_of(game)
    users = [alice, bob]
    return {
        "mover": [cookie_of(users[first])],
        "waiting": [cookie_of(users[1 - first])],
        "spectator": [cookie_of(carol)],
        "anonymous": [],
    }


async def send_one(game_id: int, headers: list, frame: str) -> str:
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/?version=0", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    # A raw message: the communicator's helper refuses an empty frame, a browser does not.
    await ws.send_input({"type": "websocket.receive", "text": frame})
    answer = await ws.receive_from(timeout=10)
    await ws.disconnect(timeout=10)
    return answer


@fuzz_settings(250)
@given(draw=st.data(), viewer=st.sampled_from(VIEWERS), junk=st.booleans())
def test_fuzz_moves_over_the_socket(
    game,  # noqa: F811
    cookies,
    error_log,
    count_input,
    in_process_channel_layer,  # noqa: F811
    event_loop_thread,  # noqa: F811
    draw,
    viewer,
    junk,
):
    count_input()
    form = presenter_for(game.table.game_type).action_form
    data = draw.draw(form_data(form))
    frame = draw.draw(any_text) if junk else json.dumps(data)
    before = snapshot(game)
    answer = event_loop_thread(send_one(game.pk, SITE + cookies[viewer], frame))
    assert error_log.take() == []
    after = snapshot(game)
    if after != before:
        assert not junk and viewer in ("mover", "waiting")
        assert after[0] == before[0] + 1 and after[2] == before[2] + 1
        assert all(is_ascii_number(data[name]) for name in number_fields(form) if name in data)
        assert answer.startswith(ACTED)
    else:
        assert not answer.startswith(ACTED)
        assert 'id="game-error"' in answer or "moved on" in answer
