"""Bots never propose a move the engine refuses (issue 27, fault 7): whole games between bots,
for every preset of every registered game and every bot level, each proposal played through
``apply`` as the bot task plays it.  A refusal there costs a live bot seat its move (the task
falls back to the timeout move) and crashes ``manage.py arena``.

Each (game, preset, level) is its own case: one seat plays that level, the others a level
drawn at random, so levels meet each other in every combination over the runs.  Which seat
moves when several may (Remi's prelude) is drawn too.

One game per case as CI runs it (78 cases with today's registry, about 20 s of one core,
most of it the tile rummy's hard search); ``TEST_SCALE`` (tests/scale.py) multiplies it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, GameEngine
from tests.scale import examples

GAMES_PER_CASE = examples(1)
# A game of bots that has not ended by then goes round for ever (a bot undoing and redoing).
MAX_ACTIONS = 4000


def _cases() -> Iterator[Any]:
    for key, game in GAMES.items():
        for preset in game.presets:
            for level in game.bot_levels:
                yield pytest.param(key, preset, level, id=f"{key}-{preset}-{level}")


def play_bots(game: GameEngine, preset: str, levels: list[str], seed: str) -> int:
    """One whole game between bots at ``levels`` (by seat); returns the number of actions.
    Fails on the first action ``apply`` refuses, naming the seat, its level and the move."""
    state = game.new_game(game.presets[preset], [f"bot {i + 1}" for i in range(len(levels))], seed)
    rng = random.Random(f"{seed}/bots")
    actions = 0
    while to_act := game.to_act(state):
        assert actions < MAX_ACTIONS, f"{seed}: the bots never finished"
        seat = rng.choice(sorted(to_act))
        action = game.choose(game.player_view(state, seat), levels[seat], rng)
        try:
            state, _ = game.apply(state, seat, action)
        except ValueError as refused:  # IllegalAction, InvalidAction, NotYourTurn
            pytest.fail(f"{seed}: seat {seat} ({levels[seat]}) proposed {action}: {refused!r}")
        # The action log keeps the notation, and a replay reads it back.
        assert game.parse_action(str(action)) == action
        actions += 1
    assert game.outcome(state) is not None
    return actions


@pytest.mark.parametrize(("key", "preset", "level"), list(_cases()))
@settings(
    max_examples=GAMES_PER_CASE,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_bots_only_propose_moves_the_engine_accepts(key: str, preset: str, level: str, seed):
    game = GAMES[key]
    # The case's names are part of the deal's seed: with one game per case, each case still
    # gets its own table size, seating and deal.
    draw = random.Random(f"{key}/{preset}/{level}/{seed}")
    seats = draw.randint(game.min_seats, game.max_seats)
    levels = [draw.choice(game.bot_levels) for _ in range(seats)]
    levels[draw.randrange(seats)] = level
    play_bots(game, preset, levels, f"bot-moves-{key}-{preset}-{level}-{seed}")
