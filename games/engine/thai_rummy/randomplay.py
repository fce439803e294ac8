"""Random play for playouts and property tests: mostly the bots' moves, with random pickups
from the pile, random melds and lay-offs from the hand's candidates, passes and random
discards mixed in, so every rule comes up.  Every action returned is one ``apply``
accepts."""

from __future__ import annotations

import random

from ..card_actions import Action, Discard, Draw, Group, LayOff, MeldCards
from ..card_planner import candidate_melds
from ..errors import IllegalAction
from .actions import Pass
from .bots import EASY, HARD, NORMAL, Seen, choose, pickups
from .state import DRAW, State
from .turns import apply
from .view import player_view


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    roll = rng.random()
    if roll < 0.45:
        level = rng.choice([EASY, EASY, NORMAL, NORMAL, HARD])
        return choose(player_view(state, seat), level, rng)
    if state.phase == DRAW:
        return _random_draw(state, seat, rng)
    tries: list[Action] = []
    if roll < 0.65:
        melds = candidate_melds(state.hands[seat], state.rules)
        rng.shuffle(melds)
        tries += [MeldCards(Group(m.cards)) for m in melds[:3]]
    if roll < 0.8 and state.table:
        for card in rng.sample(state.hands[seat], min(3, len(state.hands[seat]))):
            tries.append(LayOff(rng.randint(1, len(state.table)), Group((card,))))
    for action in tries:
        if _accepted(state, seat, action):
            return action
    return Discard(rng.choice(state.hands[seat]))


def _random_draw(state: State, seat: int, rng: random.Random) -> Action:
    if rng.random() < 0.5:
        takes = [take for take, _meld, _rest in pickups(Seen(player_view(state, seat)), 52)]
        if takes:
            return rng.choice(takes)
    return Draw() if state.stock else Pass()


def _accepted(state: State, seat: int, action: Action) -> bool:
    try:
        apply(state, seat, action)
    except IllegalAction:
        return False
    return True
