"""Random play for playouts and property tests: mostly the bots' moves, with random takes,
random melds and lay-offs from the hand's candidates and random discards mixed in, so every
rule comes up.  Every action returned is one ``apply`` accepts."""

from __future__ import annotations

import random

from ..errors import IllegalAction
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Take
from .bots import EASY, HARD, NORMAL, choose
from .planner import candidate_melds
from .state import DRAW, State
from .turns import apply, may_discard
from .view import player_view


def random_action(state: State, seat: int, rng: random.Random) -> Action:
    roll = rng.random()
    if roll < 0.45:
        level = rng.choice([EASY, EASY, NORMAL, NORMAL, HARD])
        return choose(player_view(state, seat), level, rng)
    if state.phase == DRAW:
        return _random_draw(state, seat, rng)
    tries: list[Action] = []
    if roll < 0.6:
        melds = candidate_melds(state.hands[seat], state.rules)
        rng.shuffle(melds)
        tries += [MeldCards(Group(m.cards, m.joker_readings)) for m in melds[:3]]
    if roll < 0.75 and state.table:
        for card in rng.sample(state.hands[seat], min(3, len(state.hands[seat]))):
            tries.append(LayOff(rng.randint(1, len(state.table)), Group((card,))))
    for action in tries:
        if _accepted(state, seat, action):
            return action
    return _random_discard(state, seat, rng)


def _random_draw(state: State, seat: int, rng: random.Random) -> Action:
    if state.rules.deep_pickup and len(state.discard) > 1 and rng.random() < 0.3:
        card = rng.choice(state.discard[:-1])
        depth = len(state.discard) - 1 - state.discard[::-1].index(card)
        hand = [*state.hands[seat], *state.discard[depth:]]
        for meld in candidate_melds(hand, state.rules):
            action = Take(card, meld=Group(meld.cards, meld.joker_readings))
            if card in meld.cards and _accepted(state, seat, action):
                return action
        for onto in range(1, len(state.table) + 1):
            action = Take(card, onto=onto)
            if _accepted(state, seat, action):
                return action
    if state.discard and rng.random() < 0.3:
        return Take()
    return Draw()


def _random_discard(state: State, seat: int, rng: random.Random) -> Action:
    hand = state.hands[seat]
    allowed = [c for c in hand if may_discard(state, hand, c)]
    return Discard(rng.choice(allowed))


def _accepted(state: State, seat: int, action: Action) -> bool:
    try:
        apply(state, seat, action)
    except IllegalAction:
        return False
    return True
