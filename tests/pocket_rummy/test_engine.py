"""Pocket Rummy keeps the engine protocol: the checks every game's engine passes."""

from __future__ import annotations

import json
import random

from games.engine import GAMES, get_game
from games.engine.core.protocol import GameEngine

from .engine import GAME, Discard, Draw, parse_action


def play_out(seed: str) -> tuple[object, list[tuple[int, str]]]:
    rng = random.Random(seed)
    state = GAME.new_game(GAME.presets["pocket-rummy"], ["alice", "bob"], seed)
    log = []
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        action = GAME.random_action(state, seat, rng)
        before = json.dumps(GAME.dump(state))
        state, _ = GAME.apply(state, seat, action)
        assert json.dumps(GAME.dump(GAME.load(json.loads(before)))) == before
        log.append((seat, str(action)))
    return state, log


def test_it_is_registered_from_its_plug_in_line():
    assert get_game("pocket-rummy") is GAME
    assert list(GAMES)[-1] == "pocket-rummy"
    assert isinstance(GAME, GameEngine)


def test_random_games_finish_and_replay_from_their_seed():
    for n in range(30):
        state, log = play_out(f"seed-{n}")
        outcome = GAME.outcome(state)
        assert outcome is not None and len(outcome.scores) == 2
        again = GAME.replay(GAME.rules_of(state), ["alice", "bob"], f"seed-{n}", log)
        assert GAME.dump(again) == GAME.dump(state)
        assert GAME.to_act(state) == frozenset()


def test_the_notation_round_trips_and_views_hide_the_other_hand():
    for action in (Draw(), Discard("R7"), Discard("B10")):
        assert parse_action(str(action)) == action
    state = GAME.new_game(GAME.presets["pocket-rummy"], 2, "hidden")
    for seat in (0, 1, None):
        view = GAME.player_view(state, seat)
        shown = json.dumps(view)
        assert state.seed not in shown
        for other in {0, 1} - {seat}:
            resampled = GAME.resample_hidden(state, seat, random.Random(other))
            assert GAME.player_view(resampled, seat) == view


def test_bots_and_timeouts_make_legal_moves():
    state = GAME.new_game(GAME.presets["pocket-rummy"], 2, "bots")
    rng = random.Random(1)
    for turn in range(40):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        if turn % 2:
            action = GAME.timeout_action(state, seat)
        else:
            action = GAME.choose(GAME.player_view(state, seat), "easy", rng)
        assert action is not None
        state, _ = GAME.apply(state, seat, action)
