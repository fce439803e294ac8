"""Remi bots with the readings of Romanian printed rules: doublas (one offer each, answered
whenever asked), a Joly freed in the first meld's turn, and play that loosens when the wall
is rebuilt with nothing laid."""

from __future__ import annotations

import random

import pytest

from games.engine import get_game
from games.engine.remi import PRESETS, REMI, apply, player_view
from games.engine.remi.actions import (
    Draw,
    Exchange,
    MeldAction,
    OfferDoubla,
    Ready,
    SwapJoly,
    TakeExposed,
)
from games.engine.remi.bots import choose_action
from games.engine.remi.scenario import position
from games.engine.remi.state import OPEN, PLAY, PRELUDE, USE_DISCARD
from games.engine.tiles import parse_tile

from .helpers import bag, rack
from .properties import layable_off_the_table

# Ana's R5 pair and Bogdan's K9 pair have no partner on their racks; Ana's Y7 pair does (Y8).
RACKS = ["R5 R5 Y7 Y7 Y8 B12 K2", "K9 K9 R1 B3 Y11 Y11 B6"]


def prelude(racks=RACKS):
    state = position(racks, phase=PRELUDE, acted=False)
    state.ready = [False] * state.players
    return state


def bot_move(state, seat, level="normal", seed=0):
    action = choose_action(player_view(state, seat), level, random.Random(seed))
    new, _ = apply(state, seat, action)
    return action, new


def test_bots_offer_a_pair_that_helps_nothing_and_exchange_it():
    state = prelude()
    actions = []
    while state.phase == PRELUDE:
        seat = next(s for s, ready in enumerate(state.ready) if not ready)
        action, state = bot_move(state, seat)
        actions.append((seat, action))
    assert (0, OfferDoubla(parse_tile("R5"), None)) in actions  # not the Y7s, next to Y8
    assert (1, OfferDoubla(parse_tile("K9"), None)) in actions
    assert state.phase == OPEN
    assert rack(state, 0) == bag("K9 K9 Y7 Y7 Y8 B12 K2")
    assert rack(state, 1) == bag("R5 R5 R1 B3 Y11 Y11 B6")


def test_a_bot_answers_an_exchange_asked_of_its_offer():
    state = prelude()
    state, _ = apply(state, 1, "doubla K9")
    state, _ = apply(state, 1, "ready")
    state, _ = apply(state, 0, "doubla Y7")
    state, _ = apply(state, 0, "exchange 1")  # Bogdan (the bot) is no longer ready
    assert not state.ready[1]
    action, state = bot_move(state, 1, level="easy")
    assert action == Exchange(0)
    assert rack(state, 1) == bag("Y7 Y7 R1 B3 Y11 Y11 B6")


def test_a_bot_offers_one_doubla_a_game_even_when_the_rules_allow_more():
    assert REMI.many_doublas
    state = prelude(["R5 R5 B9 B9 Y1", "K9 K9 R1 B3 Y11 Y12 B6"])
    state, _ = apply(state, 0, "doubla R5")
    state, _ = apply(state, 1, "doubla K9")
    state, _ = apply(state, 1, "exchange 0")
    state, _ = apply(state, 0, "exchange 1")
    # Ana could offer her B9 pair as well; as a bot she says she is ready.
    assert "doubla" in player_view(state, 0)["can"]
    action, _ = bot_move(state, 0, level="hard")
    assert action == Ready()


def test_easy_bots_never_offer():
    action, _ = bot_move(prelude(), 0, level="easy")
    assert action == Ready()


def test_a_hard_bot_frees_the_joly_of_the_meld_it_has_just_laid():
    state = position(
        ["R11 K8 Y8 R5 B11", "Y4 Y8 B13"],
        melds=[("R10 J=R11 R12 R13", 0), ("K2 B2 Y2", 0)],
        melded=[1],
        phase=PLAY,
    )
    state.melded_on[0] = state.turn_number  # laid this turn: Ana's first meld
    action, state = bot_move(state, 0, level="hard")
    assert isinstance(action, SwapJoly) and action.meld == 0
    assert state.melds[0].meld.notation() == "R10 R11 R12 R13"


def test_a_normal_bot_frees_jolys_once_the_wall_was_rebuilt_twice_with_nothing_laid():
    state = position(
        ["R6 K8 Y8 B3", "Y4 Y9 B13"],
        melds=[("R5 J=R6 R7", 1)],
        melded=[0, 1],
        phase=PLAY,
    )
    for idle in (0, 1):
        state.idle_rebuilds = idle
        action, _ = bot_move(state, 0)
        assert not isinstance(action, SwapJoly)
    state.idle_rebuilds = 2
    action, after = bot_move(state, 0)
    assert action == SwapJoly(0, (parse_tile("R6"),), action.group)
    assert rack(after, 0) == bag("B3")


@pytest.mark.parametrize("levels", [("normal", "normal"), ("hard", "easy", "normal")])
def test_bot_games_end_and_never_while_a_tile_could_still_be_laid(levels):
    game = get_game("remi")
    for number in range(6):
        state = game.new_game(REMI, len(levels), f"bots-end-{number}")
        rng = random.Random(number)
        for _ in range(5000):
            to_act = game.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            action = game.choose(game.player_view(state, seat), levels[seat], rng)
            state, _ = game.apply(state, seat, action)
        assert state.result is not None, "the bots never finished"
        if state.result.winner is None:
            assert not layable_off_the_table(state)


# --- Obligations a take brings (issue 27, fault 7) ---------------------------------------------

OPEN_DISCARD = PRESETS["remi-open-discard"]
# R12 is the previous player's discard.  With it Ana's first meld is R10 R11 R12 | K13 B13 Y13
# (60 points, a run); without it she has no first meld.  Two tiles would stay on her rack: the
# hard bot's rule is to hold such a meld back while the wall is long.
ANA_BEFORE_R12 = "R10 R11 K13 B13 Y13 B3 Y7"
LONG_WALL = "Y2 Y3 Y4 Y5 Y6 B5 B6 B7 B8 B9 K2 K3 K4 K5 K6 R2 R3 R4 R5 R6 R7 Y9 Y10 B10"
SHORT_WALL = "Y2 Y3 Y4 Y5 Y6"


def open_discard_position(wall):
    return position(
        [ANA_BEFORE_R12, "K1 K2 Y11 B2 R8 R9"],
        rules=OPEN_DISCARD,
        wall=wall,
        exposed=None,
        discards="Y9 R12",
    )


def play_bot_turn(state, seat, level, limit=20):
    """The bot's actions until its turn passes, each applied (apply raises if it refuses)."""
    actions = []
    rng = random.Random(0)
    while state.turn == seat and state.result is None:
        assert len(actions) < limit, f"the turn never ended: {actions}"
        action = choose_action(player_view(state, seat), level, rng)
        state, _ = apply(state, seat, action)
        actions.append(action)
    return actions, state


def test_a_hard_bot_that_took_the_discard_for_its_first_meld_melds_it_rather_than_holding():
    state = open_discard_position(LONG_WALL)
    state, _ = apply(state, 0, "take")
    assert state.pending == USE_DISCARD
    action, after = bot_move(state, 0, level="hard")  # was a discard, refused (use-discard)
    assert isinstance(action, MeldAction)
    assert parse_tile("R12") in [t for g in action.groups for t in g.tiles]
    assert after.melded_on[0] is not None and after.pending is None
    assert rack(after, 0) == bag("B3 Y7")


def test_a_hard_bot_holding_its_first_meld_back_draws_rather_than_take_the_discard():
    # Taking R12 would bind Ana to meld it this turn, the meld she would rather hold back.
    actions, after = play_bot_turn(open_discard_position(LONG_WALL), 0, "hard")
    assert actions[0] == Draw()
    assert after.melded_on[0] is None


@pytest.mark.parametrize(("level", "wall"), [("hard", SHORT_WALL), ("normal", LONG_WALL)])
def test_a_bot_that_lays_its_first_meld_takes_the_discard_for_it(level, wall):
    # Hard lays its meld once the wall is short; normal always lays what it can.
    actions, after = play_bot_turn(open_discard_position(wall), 0, level)
    assert [str(a) for a in actions] == ["take", "meld R10 R11 R12 | Y13 B13 K13", "discard B3"]
    assert rack(after, 0) == bag("Y7")


def test_a_hard_bot_that_took_the_exposed_tile_frees_no_joly_it_needs_to_go_out():
    # With R4 Ana goes out: R4 K4 B4, B5 on the blue run, B8 discarded.  Freeing the Joly with
    # B8 (J B4 B5) would leave K4 R4, and the bot put the tile back and took it again for ever.
    state = position(
        ["B4 B5 K4 B8", "K1 K2 Y11 B2 R8 R9"],
        wall=SHORT_WALL,
        exposed="R4",
        melds=[("B6 B7 J=B8 B9", 1)],
        melded=[0, 1],
    )
    actions, after = play_bot_turn(state, 0, "hard")
    assert actions[0] == TakeExposed()
    assert after.result is not None and after.result.winner == 0


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_bot_bound_to_go_out_never_tries_a_refused_discard(level):
    # Ana took the exposed R7 to go out: R5 R6 R7 and then K9 as her last discard.  An easy
    # bot that draws "hold back" must still lay the meld (a discard of two tiles is refused).
    state = position(["R5 R6 K9", "K3 Y5 B11 R1"], melded=[0], exposed="R7", wall="B2 Y3")
    state, _ = apply(state, 0, TakeExposed())
    for seed in range(40):
        after = state
        for _ in range(3):  # meld, then the last tile
            _, after = bot_move(after, 0, level, seed)
            if after.phase == "over":
                break
        assert after.result is not None and after.result.winner == 0
