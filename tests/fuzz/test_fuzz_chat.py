"""Fuzzing the chat's HTTP endpoints: posting a line and muting a writer.

Properties for every input: never a 500, nothing logged at ERROR; a refused line saves
nothing; a mute's answer names only lines the asker may read (never the players' room to a
spectator while the game is played), and answers for a user who does not exist and for one
who is not at the table are the same."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chat.models import ChatMessage, ChatMute, Room
from chat.phrases import PHRASES
from games.models import Game
from tests.conftest import make_user
from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text, other_digits
from tests.fuzz.test_fuzz_http import HTMX, VIEWERS, assert_answered, client_for, mover_of
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db

LINE_ID = re.compile(r'id="chat-(\d+)"')


@pytest.fixture
def game(alice, bob) -> Game:
    return two_player_game(alice, bob)


@pytest.fixture
def clients(alice, bob, carol, game):
    first = mover_of(game)
    users = [alice, bob]
    return {
        "mover": client_for(users[first]),
        "waiting": client_for(users[1 - first]),
        "spectator": client_for(carol),
        "anonymous": client_for(None),
    }


@pytest.fixture
def lines(alice, bob, carol, game) -> dict[str, int]:
    """One line in each room: Bob's among the players, Carol's among the spectators."""
    return {
        "players": ChatMessage.objects.create(
            game=game, author=bob, room=Room.PLAYERS, text="p"
        ).pk,
        "spectators": ChatMessage.objects.create(
            game=game, author=carol, room=Room.SPECTATORS, text="s"
        ).pk,
    }


post_data = st.fixed_dictionaries(
    {},
    optional={
        "text": st.one_of(any_text, st.lists(any_text, min_size=2, max_size=3)),
        "phrase": st.one_of(st.sampled_from(sorted(PHRASES)), any_text),
        "csrfmiddlewaretoken": any_text,
    },
)


@fuzz_settings(300)
@given(viewer=st.sampled_from(VIEWERS), data=post_data, htmx=st.booleans())
def test_fuzz_posting_to_the_chat(game, clients, error_log, count_input, viewer, data, htmx):
    count_input()
    before = ChatMessage.objects.count()
    response = clients[viewer].post(f"/games/{game.pk}/chat/", data, **(HTMX if htmx else {}))
    assert_answered(response, error_log)
    after = ChatMessage.objects.count()
    if after != before:
        assert viewer != "anonymous" and after == before + 1
    ChatMessage.objects.filter(pk__gt=0).delete()


@fuzz_settings(300)
@given(
    viewer=st.sampled_from(VIEWERS),
    target=st.sampled_from(["bob", "carol", "alice", "stranger", "nobody", "text"]),
    junk=st.one_of(any_text, other_digits),
    data=st.dictionaries(st.sampled_from(["unmute"]) | any_text, any_text, max_size=2),
)
def test_fuzz_muting(
    game, clients, lines, alice, bob, carol, error_log, count_input, viewer, target, junk, data
):
    count_input()
    stranger = make_user("stranger") if target == "stranger" else None
    ids = {"bob": bob.pk, "carol": carol.pk, "alice": alice.pk, "nobody": 999_999}
    user_id = stranger.pk if stranger else ids.get(target)
    path = f"/games/{game.pk}/chat/mute/{user_id if user_id else junk}/"
    response = clients[viewer].post(path, data, **HTMX)
    assert_answered(response, error_log)
    named = {int(pk) for pk in LINE_ID.findall(response.content.decode())}
    # A spectator is never told of the players' room, nor a player of the spectators'.
    if viewer == "spectator":
        assert lines["players"] not in named
    if viewer in ("mover", "waiting"):
        assert lines["spectators"] not in named
    if target in ("stranger", "nobody") and response.status_code == 200:
        assert response.content == b""
    ChatMute.objects.all().delete()
    if stranger is not None:
        stranger.delete()
