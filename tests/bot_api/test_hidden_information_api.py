"""The hidden-information walk, over the Bot API: a bot's game stream carries exactly what its
seat may see.

A game of each type is played to its end between a person and a bot account; at every
version the line the game stream sends the bot (``bot_api.play.game_line``, which
``bot_api.streams.game`` writes out as it is) is checked: after every hidden part of the
state is dealt afresh (the other racks, the wall or stock: the engine's ``resample_hidden``)
the line is byte for byte the same (until the game is over, when every rack is shown, as on
the pages), and it names no seed (the game's, the series') nor the
table's invitation code.  The event stream's lines are held to the same.  That the stream
sends that very line is checked over HTTP in test_streams.py."""

from __future__ import annotations

import json
import random

import pytest

from bot_api import play
from games.engine import GAMES
from games.models import Game
from games.play import services
from tests.bot_api.helpers import bot_account, game_with_bot, open_table, play_for

pytestmark = pytest.mark.django_db

# The keys of a game line (docs/bot-api.md): a new one must be looked at here first.
LINE_KEYS = {
    "type",
    "game",
    "table",
    "game_type",
    "version",
    "status",
    "seat",
    "to_act",
    "my_turn",
    "players",
    "deadline",
    "scores",
    "view",
}


def secrets_of(game: Game) -> list[str]:
    engine = services.game_of(game.table)
    seeds = [engine.ctx(engine.load(game.state)).seed, game.table.invite_code]
    series_seed = (game.table.series or {}).get("seed")
    return [str(s) for s in [*seeds, series_seed] if s]


def check_line(game: Game, seat, rng: random.Random) -> None:
    line = play.game_line(game, seat)
    assert set(line) == LINE_KEYS
    text = json.dumps(line)
    for secret in secrets_of(game):
        assert secret not in text, "a seed or the invitation code reached the bot"
    if game.status != Game.Status.PLAYING:
        return  # once it is over every rack is shown, as on the pages
    engine = services.game_of(game.table)
    scrambled = Game.objects.select_related("table").get(pk=game.pk)
    state = engine.resample_hidden(engine.load(game.state), seat.position, rng)
    scrambled.state = engine.dump(state)
    assert json.dumps(play.game_line(scrambled, seat)) == text, (
        "the bot's line changed with what its seat cannot see"
    )


@pytest.mark.parametrize("game_type", list(GAMES))
def test_a_bot_sees_only_its_seat_at_every_version(alice, game_type: str) -> None:
    robo, _key = bot_account()
    game = game_with_bot(alice, robo, game_type=game_type)
    seat = game.table.seats.get(user=robo)
    rng = random.Random(game_type)
    moves = 0
    while True:
        game = Game.objects.select_related("table").get(pk=game.pk)
        check_line(game, seat, rng)
        if game.status != Game.Status.PLAYING:
            break
        play_for(game, min(game.to_act), rng)
        moves += 1
    assert moves > 10
    final = play.game_line(game, seat)
    assert final["status"] == "finished" and final["scores"] is not None
    # Events name no secret either.
    for event in play.events_for(robo):
        for secret in secrets_of(game):
            assert secret not in json.dumps(event)


def test_an_invitation_event_carries_no_invitation_code(alice) -> None:
    robo, _key = bot_account()
    table = open_table(alice)
    play.invite(table, alice, robo)
    (event,) = play.events_for(robo)
    assert event["type"] == "invitation"
    assert table.invite_code not in json.dumps(event)
