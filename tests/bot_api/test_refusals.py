"""Issue 33, acceptance 2 (second part): a stale move, an illegal move and a revoked token
are each refused cleanly through the API, and nothing changes: not the game, its version, its
log, its clocks.  The illegal move's sentence is the one a person's page shows for it."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from bot_api import tokens
from bot_api.models import BotToken
from games import presenters
from games.engine import IllegalAction, InvalidAction
from games.models import Action, Game
from games.play import services
from tests.bot_api.helpers import (
    bearer,
    bot_account,
    game_with_bot,
    play_for,
    state_of,
    unheld_tile_discard,
)

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return (
        game.version,
        game.state,
        game.to_act,
        game.seat_clocks,
        game.status,
        list(Action.objects.filter(game=game).values_list("version", "notation")),
    )


def bots_turn(alice, robo) -> Game:
    game = game_with_bot(alice, robo)
    rng = random.Random(4)
    # At least one move made, so there is an older version to answer.
    while 1 not in game.to_act or game.version == 0:
        play_for(game, min(game.to_act), rng)
        game.refresh_from_db()
    return game


def test_stale_illegal_and_revoked_are_refused_and_change_nothing(alice) -> None:
    robo, key = bot_account()
    game = bots_turn(alice, robo)
    api = Client()
    move_url = f"/api/bot/game/{game.pk}/move"
    engine = services.game_of(game.table)
    view = engine.player_view(state_of(game), 1)
    good = str(engine.timeout_action(state_of(game), 1))
    before = snapshot(game)

    # Stale: the move answers a version the game has left.
    stale = api.post(
        move_url, {"move": good, "version": game.version - 1}, "application/json", **bearer(key)
    )
    assert stale.status_code == 409
    assert stale.json() == {
        "error": "moved-on",
        "message": "The game has moved on: here is the current position.",
        "version": game.version,
    }
    assert snapshot(game) == before

    # Illegal: a discard of a tile the bot does not hold, worded as for a person.
    illegal = unheld_tile_discard(view)
    refused = api.post(
        move_url, {"move": illegal, "version": game.version}, "application/json", **bearer(key)
    )
    assert refused.status_code == 422
    with pytest.raises((IllegalAction, InvalidAction)) as person_gets:
        engine.apply(state_of(game), 1, engine.parse_action(illegal))
    sentence = presenters.presenter_for("remi").refusal_text(person_gets.value, game)
    assert refused.json() == {"error": "refused", "message": sentence, "version": game.version}
    assert snapshot(game) == before

    # Not notation at all.
    garbled = api.post(
        move_url, {"move": "dance", "version": game.version}, "application/json", **bearer(key)
    )
    assert garbled.status_code == 422
    assert snapshot(game) == before

    # Revoked: the same good move, refused for its token.
    tokens.revoke(BotToken.objects.get(user=robo))
    revoked = api.post(
        move_url, {"move": good, "version": game.version}, "application/json", **bearer(key)
    )
    assert revoked.status_code == 401
    assert revoked.json()["error"] == "bad-token"
    assert snapshot(game) == before

    # And a live token plays that very move: the refusals were about them, not the move.
    _token, fresh = tokens.create_token(robo, "again")
    played = api.post(
        move_url, {"move": good, "version": game.version}, "application/json", **bearer(fresh)
    )
    assert played.json() == {"ok": True, "version": game.version + 1}
    assert Action.objects.get(game=game, version=game.version + 1).cause == Action.Cause.PLAYER


def test_a_bot_may_not_move_in_a_game_it_has_no_seat_in(alice, bob) -> None:
    _robo, key = bot_account()
    game = game_with_bot(alice, bob)
    before = snapshot(game)
    answer = Client().post(
        f"/api/bot/game/{game.pk}/move",
        {"move": "draw", "version": game.version},
        "application/json",
        **bearer(key),
    )
    assert answer.status_code == 404
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1]",
        b'{"move": "draw"}',
        b'{"move": 5, "version": 1}',
        b'{"move": "draw", "version": true}',
    ],
)
def test_malformed_requests_are_refused(alice, body: bytes) -> None:
    robo, key = bot_account()
    game = game_with_bot(alice, robo)
    before = snapshot(game)
    answer = Client().post(f"/api/bot/game/{game.pk}/move", body, "application/json", **bearer(key))
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-request"
    assert snapshot(game) == before
