"""Playing games through the service layer: to their end, as the tests of finished games need,
or one move at a time, as the browser tests that watch moves made elsewhere need."""

from __future__ import annotations

import random

from games.models import Game
from games.play import services


def play_out(game: Game, seed: int = 3) -> Game:
    """The easy bot's moves for every seat, through services.play, until the game is over
    (bots go out in a few dozen moves, where random moves take thousands)."""
    engine = services.game_of(game.table)
    rng = random.Random(seed)
    while True:
        game = Game.objects.select_related("table").get(pk=game.pk)
        if game.status != Game.Status.PLAYING:
            return game
        state = engine.load(game.state)
        seat = min(game.to_act)
        action = engine.choose(engine.player_view(state, seat), "easy", rng)
        services.play(game.pk, seat, action, game.version)


def play_random(game_id: int, seed: int) -> Game:
    """A random move of the first seat to act, as the server takes it: the game it leaves."""
    game = Game.objects.select_related("table").get(pk=game_id)
    engine = services.game_of(game.table)
    seat = min(game.to_act)
    action = engine.random_action(engine.load(game.state), seat, random.Random(seed))
    return services.play(game_id, seat, str(action), game.version).game
