"""Random play for playouts and property tests: mostly sensible moves (an easy or normal bot's),
with draws, timeouts and deliberately rough rearrangements mixed in, so penalties, joker
restrictions and empty stocks all come up.  Every action returned is one ``apply`` accepts
(a rough one may earn a penalty, never a refusal)."""

from __future__ import annotations

import random

from ..tiles import Tile
from .actions import Action, Draw, Group, Play, Timeout
from .bots import EASY, HARD, NORMAL, plan_turn
from .state import State

# The bots' searches are cut short in playouts: thousands of games must stay quick.
PLAYOUT_BUDGET = 80


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    roll = rng.random()
    if roll < 0.02:
        return Timeout()
    if roll < 0.08:
        return Draw()
    if roll < 0.18 and state.racks[seat]:
        return rough_play(state, seat, rng)
    level = HARD if rng.random() < 0.06 else rng.choice([EASY, NORMAL, NORMAL])
    # What the bot's seat sees, taken straight from the state (the bots' own tests go
    # through player_view; playouts skip the round trip to stay quick).
    return plan_turn(
        state.table,
        state.racks[seat],
        state.melded[seat],
        state.rules,
        level,
        rng,
        budget=PLAYOUT_BUDGET,
    )


def rough_play(state: State, seat: int, rng: random.Random) -> Play:
    """Rack tiles thrown onto the table with its melds cut at random places: sometimes a
    legal rearrangement, mostly a penalty."""
    rack = list(state.racks[seat])
    rng.shuffle(rack)
    placed = rack[: rng.randint(1, min(3, len(rack)))]
    pieces: list[list[Tile]] = [list(m.tiles) for m in state.table]
    if pieces and rng.random() < 0.5:
        index = rng.randrange(len(pieces))
        meld = pieces.pop(index)
        cut = rng.randint(1, len(meld))
        pieces[index:index] = [meld[:cut], meld[cut:]] if cut < len(meld) else [meld]
    for tile in placed:
        if pieces and rng.random() < 0.6:
            rng.choice(pieces).append(tile)
        else:
            pieces.append([tile])
    return Play(tuple(Group(tuple(p)) for p in pieces if p))
