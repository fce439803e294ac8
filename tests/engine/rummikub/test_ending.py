"""The end of a game: a player with an empty rack wins; an empty stock ends the game as the
``stock_exhausted`` option says; scores by document 004 (jokers count 30)."""

from __future__ import annotations

from games.engine.rummikub import GAME, RUMMIKUB, apply
from games.engine.rummikub.rules import STOCK_END_NOW
from games.engine.rummikub.scenario import position

from .helpers import codes

END_NOW = RUMMIKUB.with_options(stock_exhausted=STOCK_END_NOW)


def test_playing_the_last_tile_wins_and_the_others_pay_their_racks():
    state = position(
        racks=["R11 R12 R13", "K1 K2 J", "Y13 B9"],
        table=["B1 B2 B3"],
        stock="Y1 Y2",
        melded=[0, 1, 2],
    )
    new, events = apply(state, 0, "play B1 B2 B3 | R11 R12 R13")
    assert codes(events) == ["played", "went-out", "game-over"]
    assert new.over and new.result.reason == "out" and new.result.winner == 0
    # K1 K2 J = 1 + 2 + 30; Y13 B9 = 22.  The winner adds both; each other pays their own.
    assert new.result.rack_totals == (0, 33, 22)
    assert new.result.scores == (55, -33, -22)
    assert events[-1].params == {
        "reason": "out",
        "winner": 0,
        "rack_totals": [0, 33, 22],
        "scores": [55, -33, -22],
    }
    outcome = GAME.outcome(new)
    assert outcome.winners == (0,) and outcome.scores == (55, -33, -22)
    assert GAME.to_act(new) == frozenset()


def test_going_out_with_first_melds_in_one_turn():
    state = position(racks=["R10 R11 R12 Y5 B5 K5", "K1"], stock="Y1")
    new, _ = apply(state, 0, "play R10 R11 R12 | Y5 B5 K5")
    assert new.result.winner == 0 and new.result.scores == (1, -1)


def test_joker_value_is_an_option():
    state = position(
        racks=["R1 R2 R3", "J K9"], melded=[0], rules=RUMMIKUB.with_options(joker_value=50)
    )
    new, _ = apply(state, 0, "play R1 R2 R3")
    assert new.result.scores == (59, -59)


def test_play_on_an_empty_stock_draw_is_a_pass_and_a_silent_round_ends_the_game():
    state = position(racks=["R5 K1", "Y9 Y10", "B4"], table=["R1 R2 R3"], melded=[0, 1, 2])
    state, events = apply(state, 0, "draw")
    assert codes(events) == ["passed"] and state.passes == 1 and not state.over
    state, _ = apply(state, 1, "draw")
    assert state.passes == 2 and not state.over
    state, events = apply(state, 2, "draw")
    assert codes(events) == ["passed", "game-over"]
    # Lowest total wins (B4 = 4): it scores the others' racks, they pay their own.
    assert state.result.reason == "blocked" and state.result.winner == 2
    assert state.result.rack_totals == (6, 19, 4)
    assert state.result.scores == (-6, -19, 25)


def test_play_on_a_tile_played_restarts_the_round():
    state = position(
        racks=["R4 K1 K9", "Y9 Y10", "B4"], table=["R1 R2 R3"], melded=[0, 1, 2], passes=2
    )
    state, _ = apply(state, 0, "play R1 R2 R3 R4")
    assert state.passes == 0
    state, _ = apply(state, 1, "draw")
    state, _ = apply(state, 2, "draw")
    assert not state.over
    state, _ = apply(state, 0, "draw")
    assert state.over and state.result.reason == "blocked"


def test_play_on_a_penalty_with_an_empty_stock_is_a_pass_too():
    state = position(racks=["R5 K1", "Y9 Y10"], table=["R1 R2 R3"], melded=[0, 1])
    state, events = apply(state, 0, "play R1 R2 R3 | R5 K1")
    assert codes(events) == ["penalty"] and events[0].params["count"] == 0
    state, _ = apply(state, 1, "timeout")
    assert state.over and state.result.winner == 0


def test_a_shared_lowest_total_has_no_winner():
    state = position(racks=["R5", "K5", "Y9"], melded=[0, 1, 2])
    for seat in range(3):
        state, _ = apply(state, seat, "draw")
    assert state.result.winner is None
    assert state.result.scores == (-5, -5, -9)
    assert GAME.outcome(state).winners == ()


def test_end_now_the_game_ends_when_a_player_must_draw_from_an_empty_stock():
    state = position(racks=["R4 K1", "Y9 Y10"], table=["R1 R2 R3"], melded=[0, 1], rules=END_NOW)
    new, events = apply(state, 0, "draw")
    assert codes(events) == ["game-over"]
    assert new.result.reason == "stock-out" and new.result.winner == 0
    assert new.result.rack_totals == (5, 19)
    assert new.result.scores == (19, -19)
    # Playing a tile needs no draw, so the game goes on.
    new, _ = apply(state, 0, "play R1 R2 R3 R4")
    assert not new.over


def test_end_now_the_last_tile_may_still_be_drawn():
    state = position(racks=["R5", "Y9"], stock="K2", melded=[0, 1], rules=END_NOW)
    state, events = apply(state, 0, "draw")
    assert codes(events) == ["drew"] and not state.over
    state, events = apply(state, 1, "draw")
    assert state.result.reason == "stock-out" and state.result.winner == 0
