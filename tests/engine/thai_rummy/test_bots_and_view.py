"""Thai Rummy's bots and views: every level plays legal moves from its view alone, the
normal and hard bots take from the pile when the best plan after it is better and go out
when they can, the careful bots keep a card that would cost -50; views never show other
hands, the stock or the seed."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.thai_rummy import GAME, LEVELS, choose, player_view
from games.engine.thai_rummy.scenario import position


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_hands_with_legal_moves(level):
    for seed in range(3):
        state = GAME.new_game(GAME.presets["thai-rummy"], 2, f"bots-{level}-{seed}")
        rng = random.Random(seed)
        for _ in range(600):
            if state.over:
                break
            action = choose(player_view(state, state.turn), level, rng)
            state, _ = GAME.apply(state, state.turn, action)
        assert state.over


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_planning_bots_dig_in_the_pile_for_a_meld(level):
    # 5H lies under two cards; with 6H 7H in hand it makes a run worth taking.
    state = position(["6H 7H 2S 9D KC", "3C 4D 8S"], stock="JD", discard="5H 9C 10S", turn=0)
    action = choose(player_view(state, 0), level, random.Random(1))
    assert str(action) == "take 5H with 5H 6H 7H"


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_planning_bots_go_out_when_they_can(level):
    state = position(["9S 9H 9D 4C 5C KH", "3C 4D 8S"], stock="6C", discard="KD", turn=0)
    state, _ = GAME.apply(state, 0, "draw")
    rng = random.Random(2)
    while not state.over:
        state, _ = GAME.apply(state, 0, choose(player_view(state, 0), level, rng))
    assert state.result.winner == 0 and len(state.table) == 2


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_careful_bots_do_not_throw_a_card_that_fits_the_table(level):
    # The QS is worth 50 in hand, but thrown it would fit QH QD QC and cost 50.
    state = position(
        ["QS 4D 9C", "3C 4H 8S"],
        table=["QH QD QC"],
        displayed=["", "QH QD QC"],
        stock="2S",
        discard="KD",
        turn=0,
        phase="play",
        shown=[1],
    )
    action = choose(player_view(state, 0), level, random.Random(3))
    # Laying the QS off is better still: the planner places it.
    assert str(action) == "layoff 1 QS"
    state, _ = GAME.apply(state, 0, action)
    assert str(choose(player_view(state, 0), level, random.Random(3))).startswith("discard")


def test_views_hide_other_hands_the_stock_and_the_seed():
    state = GAME.new_game(GAME.presets["thai-rummy"], 3, "secret-seed-123")
    rng = random.Random(4)
    for seat in (None, 0, 1, 2):
        view = player_view(state, seat)
        text = json.dumps(view)
        assert "secret-seed-123" not in text
        assert view["stock_count"] == len(state.stock) and "stock" not in view
        if seat is not None:
            assert view["hand"] == [str(c) for c in state.hands[seat]]
        else:
            assert view["hand"] is None
        assert GAME.player_view(GAME.resample_hidden(state, seat, rng), seat) == view
        assert view["discard"] == [str(c) for c in state.discard]
