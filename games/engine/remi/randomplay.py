"""Random legal play, for property tests, benchmarks and the easiest bot.

Randomness comes only from the ``random.Random`` passed in."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import IllegalAction
from ..tiles import Tile
from .actions import (
    Action,
    Declare,
    Discard,
    Draw,
    Exchange,
    Group,
    MeldAction,
    OfferDoubla,
    Ready,
    TakeDiscard,
    TakeExposed,
    Undo,
)
from .moves import add_candidates, meld_candidates, pick_candidates, swap_candidates
from .rules import Rules
from .state import DRAW, OPEN, OVER, PLAY, PRELUDE, State
from .turns import apply, new_game


@dataclass
class PlayedGame:
    start: State
    final: State
    actions: list[tuple[int, str]] = field(default_factory=list)
    states: list[State] = field(default_factory=list)


def actor(state: State) -> int:
    """The seat that should act next (in the prelude, the first seat not yet ready)."""
    if state.phase == PRELUDE:
        return next(i for i, ready in enumerate(state.ready) if not ready)
    return state.turn


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    """A random action that ``apply`` accepts for ``seat``."""
    for action in _proposals(state, seat, rng):
        try:
            apply(state, seat, action)
        except IllegalAction:
            continue
        return action
    raise AssertionError("no legal action found")  # every phase has a fallback


def _proposals(state: State, seat: int, rng: random.Random) -> Iterator[Action]:
    rack = state.racks[seat]
    if not state.acted[seat] and state.exposed_tile in rack and rng.random() < 0.7:
        yield Declare()
    if state.phase == PRELUDE:
        if rng.random() < 0.3:
            pairs = sorted({t for t in rack if rack.count(t) >= 2 and not t.is_joker})
            if pairs:
                tile = rng.choice(pairs)
                low = tile.number in state.rules.low_doubla()
                yield OfferDoubla(tile, rng.choice([None, "low" if low else "high"]))
            others = [i for i, o in enumerate(state.offers) if o is not None and i != seat]
            if others:
                yield Exchange(rng.choice(others))
        yield Ready()
        return
    if state.phase == OPEN:
        yield Discard(rng.choice(rack))
        return
    if state.phase == DRAW:
        roll = rng.random()
        if roll < 0.05:
            yield TakeExposed()
        if roll < 0.3:
            picks = pick_candidates(state, seat)
            if picks:
                yield rng.choice(picks)
            yield TakeDiscard()
        yield Draw()
        return
    if state.phase == PLAY:
        if state.pending and rng.random() < 0.5:
            yield Undo()
        if rng.random() < 0.85:
            melds = meld_candidates(rack)
            rng.shuffle(melds)
            if melds and state.melded_on[seat] is None:
                yield MeldAction(tuple(_disjoint(melds, rack)))
            for group in melds[:6]:
                yield MeldAction((group,))
            adds = add_candidates(state, seat)
            rng.shuffle(adds)
            yield from adds[:6]
            swaps = swap_candidates(state, seat)
            rng.shuffle(swaps)
            yield from swaps[:3]
        tiles = list(rack)
        rng.shuffle(tiles)
        for tile in tiles:
            yield Discard(tile)
        yield Undo()


def _disjoint(melds: list[Group], rack: list[Tile]) -> list[Group]:
    """A greedy bundle of non-overlapping melds (a first meld is usually several)."""
    left = list(rack)
    chosen: list[Group] = []
    for group in melds:
        try:
            trial = list(left)
            for tile in group.tiles:
                trial.remove(tile)
        except ValueError:
            continue
        if not trial:
            continue
        chosen.append(group)
        left = trial
    return chosen


def play_random_game(
    rules: Rules,
    players: int,
    seed: int | str,
    rng: random.Random,
    keep_states: bool = False,
    max_actions: int = 5000,
) -> PlayedGame:
    state = new_game(rules, players, seed)
    game = PlayedGame(start=state, final=state)
    while state.phase != OVER:
        if len(game.actions) >= max_actions:
            raise AssertionError(f"game {seed} did not finish in {max_actions} actions")
        seat = actor(state)
        action = random_action(state, seat, rng)
        state, _ = apply(state, seat, action)
        game.actions.append((seat, str(action)))
        if keep_states:
            game.states.append(state)
    game.final = state
    return game
