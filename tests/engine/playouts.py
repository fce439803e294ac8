"""Random games of any registered game, played through the protocol alone (random legal
actions from ``random_action``, a random seat among those in ``to_act``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import GameEngine

# A playout is cut off past this many actions: a game that has not ended by then is a bug.
MAX_ACTIONS = 4000


@dataclass
class Playout:
    """One random game: where it started, every action, and every position along the way."""

    game: GameEngine
    seats: int
    seed: str
    rules: Any
    start: Any
    actions: list[tuple[int, str]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)  # every position, from the deal to the end

    @property
    def final(self) -> Any:
        return self.states[-1]


def random_playout(game: GameEngine, seats: int, seed: str) -> Playout:
    rules = game.presets[game.default_preset]
    state = game.new_game(rules, seats, seed)
    rng = random.Random(f"{seed}/moves")
    playout = Playout(game, seats, seed, rules, state, states=[state])
    while game.to_act(state):
        assert len(playout.actions) < MAX_ACTIONS, f"{game.key} {seed}: no end in sight"
        seat = rng.choice(sorted(game.to_act(state)))
        action = game.random_action(state, seat, rng)
        state, _ = game.apply(state, seat, action)
        playout.actions.append((seat, str(action)))
        playout.states.append(state)
    return playout
