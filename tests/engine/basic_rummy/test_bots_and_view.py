"""The planner finds the best melds and lay-offs from a hand; bots play from their view only;
views never show other hands, the stock or the seed."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.basic_rummy import (
    BASIC_RUMMY,
    GAME,
    LEVELS,
    PRESETS,
    Limits,
    best_plan,
    choose,
    classify,
    parse_cards,
)
from games.engine.basic_rummy.scenario import position
from games.engine.card_outlook import outs


def test_the_planner_leaves_the_fewest_points_when_a_card_fits_two_places():
    # 7H fits the hearts run and the set of sevens: only on the run does 8H follow it.
    table = [classify(parse_cards("4H 5H 6H"), BASIC_RUMMY)]
    plan = best_plan(parse_cards("7H 8H 7S 7D 7C KC"), table, BASIC_RUMMY, Limits(), False)
    assert [m.notation() for m in plan.melds] == ["7S 7D 7C"]
    assert [(i, str(c)) for i, c, _ in plan.layoffs] == [(1, "7H"), (1, "8H")]
    assert [str(c) for c in plan.left] == ["KC"]


def test_the_planner_goes_out_when_it_can_and_keeps_a_card_when_it_must():
    hand = parse_cards("2C 3C 4C 9D 9S 9H")
    assert best_plan(hand, [], BASIC_RUMMY, Limits(), False).left == ()
    kept = best_plan(hand, [], BASIC_RUMMY, Limits(keep=1), False)
    # Both melds would leave nothing to throw: the run stays in hand (9 points, not 27).
    assert [m.notation() for m in kept.melds] == ["9S 9H 9D"]
    assert [str(c) for c in kept.left] == ["2C", "3C", "4C"]
    one = best_plan(hand, [], BASIC_RUMMY, Limits(new_melds=1), False)
    assert len(one.melds) == 1 and len(one.left) == 3


def test_the_planner_respects_the_lay_off_after_own_meld_rule():
    table = [classify(parse_cards("4H 5H 6H"), BASIC_RUMMY)]
    plan = best_plan(
        parse_cards("7H KC"), table, BASIC_RUMMY, Limits(lay_off_needs_meld=True), False
    )
    assert not plan.places_anything


@pytest.mark.parametrize("level", LEVELS)
def test_bots_meld_what_they_can_and_answer_with_legal_moves(level):
    state = position(["2C 3C 4C 9D 9S 9H KS", "KH 2D"], stock="QH 5S", discard="8D", phase="play")
    action = choose(GAME.player_view(state, 0), level, random.Random(1))
    assert str(action).startswith("meld")
    GAME.apply(state, 0, action)


def test_bots_refuse_to_move_out_of_turn():
    state = position(["2C 3C", "KH 2D"], stock="QH 5S", discard="8D")
    with pytest.raises(ValueError):
        choose(GAME.player_view(state, 1), "normal", random.Random(1))


def test_normal_bot_takes_the_discard_its_plan_uses():
    state = position(["5H 6H KS QD", "KH 2D"], stock="2S 3S", discard="7H")
    assert str(choose(GAME.player_view(state, 0), "normal", random.Random(1))) == "take"
    state = position(["5H 6H KS QD", "KH 2D"], stock="2S 3S", discard="9C")
    assert str(choose(GAME.player_view(state, 0), "normal", random.Random(1))) == "draw"


def test_views_hide_other_hands_the_stock_and_the_seed():
    state = GAME.new_game(PRESETS["jokers-wild"], 3, "secret-seed")
    for seat in (None, 0, 1, 2):
        view = GAME.player_view(state, seat)
        text = json.dumps(view)
        assert "secret-seed" not in text
        assert view["hand"] == (None if seat is None else [str(c) for c in state.hands[seat]])
        for other in range(3):
            if other != seat:
                assert not {str(c) for c in state.hands[other]} & set(view["hand"] or [])
        assert "stock" not in view and view["stock_count"] == len(state.stock)
        assert view["hand_counts"] == [7, 7, 7]


def test_a_view_is_the_same_after_the_hidden_cards_are_dealt_afresh():
    state = position(
        ["5H 6H 9S", "7H KC", "QS 2D"], stock="2C 3C 4C", discard="8D 9D", phase="play"
    )
    state.taken = parse_cards("9D")[0]
    state.hands[0].append(state.taken)
    rng = random.Random(3)
    for seat in (None, 0, 1, 2):
        other = GAME.resample_hidden(state, seat, rng)
        assert GAME.player_view(other, seat) == GAME.player_view(state, seat)
        assert state.taken in other.hands[0]  # public: it stays where everyone saw it go


def test_outs_count_the_unseen_cards_that_would_make_a_meld():
    hand = parse_cards("7S 7H 5D 6D KC")
    unseen = set(parse_cards("7D 7C 4D 3D 8D QC 9D"))
    # 7D and 7C for the sevens (7D would also end 5D 6D), 4D below 5D 6D; 3D and 8D leave a
    # gap, QC and 9D have no partner.
    assert outs(hand, unseen, BASIC_RUMMY) == 3
    # Aces low: K and A are not neighbours; round the corner, QKA and KA2 both meld.
    assert outs(parse_cards("KC AC"), set(parse_cards("QC 2C")), BASIC_RUMMY) == 0
    around = PRESETS["round-the-corner"]
    assert outs(parse_cards("KC AC"), set(parse_cards("QC 2C")), around) == 2


def test_the_hard_bot_keeps_cards_close_to_melds_and_throws_loose_high_ones():
    state = position(["7S 7H 5D 6D KC 2S", "KH 2D"], stock="QH 5S", discard="8C", phase="play")
    action = choose(GAME.player_view(state, 0), "hard", random.Random(1))
    assert str(action) == "discard KC"
