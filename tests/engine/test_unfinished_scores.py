"""``unfinished_scores``: each registered game scores a position as if play stopped there
with nobody out (how a tournament adjudicates a game its round deadline cut short), from
concrete hands.  The sums are worked out in the comments by each game's own rules."""

from __future__ import annotations

from games.engine import GAMES, get_game
from games.engine.basic_rummy.scenario import position as rummy_position
from games.engine.remi.scenario import position as remi_position
from games.engine.remi.state import PLAY
from games.engine.rummikub.scenario import position as rummikub_position
from games.engine.thai_rummy.scenario import position as thai_position


def test_every_registered_game_offers_the_scoring():
    assert set(GAMES) == {"remi", "rummikub", "basic-rummy", "thai-rummy"}
    for game in GAMES.values():
        assert callable(game.unfinished_scores)


def test_remi_scores_the_table_as_if_the_wall_ran_dry():
    state = remi_position(
        ["R8 K9", "K13 Y1 J", "B2 B3 B4 B5"],
        melds=[("R5 R6 J=R7", 0), ("Y10 Y11 Y12", 1)],
        melded=[0, 1],
        discards="K4",
        phase=PLAY,
        acted=False,
    )
    # Ana:    melded R5 R6 (5 + 5) + her Joly (50) - rack R8 K9 (5 + 5)        =   50
    # Bogdan: melded Y10 Y11 Y12 (30) - rack K13 (10) Y1 (25) J (25)           =  -30
    # Cristi: never melded; with no winner that costs the rack B2 B3 B4 B5    =  -20
    assert get_game("remi").unfinished_scores(state) == (50, -30, -20)
    assert state.result is None  # the position itself goes on


def test_rummikub_scores_a_blocked_game_the_lowest_rack_takes_the_others():
    state = rummikub_position(["R1 R2 J", "K13 B7", "Y5"], melded=[0, 1, 2])
    # Racks: 1 + 2 + joker 30 = 33; 13 + 7 = 20; 5.  Cristi's 5 is the lowest alone:
    # she takes 33 + 20 = 53, the others lose their own.
    assert get_game("rummikub").unfinished_scores(state) == (-33, -20, 53)


def test_rummikub_a_shared_lowest_rack_wins_nothing():
    state = rummikub_position(["R4 B1", "K5", "Y9 B9"])
    # 5, 5 and 18: the lowest is shared, so nobody wins and everyone loses their own.
    assert get_game("rummikub").unfinished_scores(state) == (-5, -5, -18)


def test_basic_rummy_scores_block_rummy_everyone_loses_the_cards_in_hand():
    state = rummy_position(["KS QS 2C", "AD 9H", "7C JK"], table=["5H 6H 7H"])
    # Face cards 10, ace 1, others their rank, a joker nothing:
    # 10 + 10 + 2 = 22; 1 + 9 = 10; 7 + 0 = 7.
    assert get_game("basic-rummy").unfinished_scores(state) == (-22, -10, -7)


def test_thai_rummy_scores_the_hand_as_if_everyone_had_passed():
    state = thai_position(["KS 5H", "QS 2C 9D"], table=["6C 7C 8C"], shown=[0], penalties=[0, 1])
    # 2-9 count 5, 10-K 10, the queen of spades and the two of clubs 50.
    # Ana showed 6C 7C 8C (15) and holds KS 5H (15): 15 - 15                    =    0
    # Bogdan showed nothing, so his hand counts double: -(50 + 50 + 5) x 2 = -210,
    # and the -50 he was charged earlier stands                                 = -260
    assert get_game("thai-rummy").unfinished_scores(state) == (0, -260)
    assert state.result is None
