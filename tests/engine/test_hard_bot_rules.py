"""The hard bots use the rules a strong player uses (issue 33): for each rule, a concrete
position where the move clearly pays, and the hard bot makes it (where it matters, the
normal bot does not).  The tile rummy's rearrangement is
``rummikub/test_bots.py::test_hard_rearranges_the_table_where_greedy_cannot``; the Joly freed
in the first meld's turn is in ``test_remi_bots.py``."""

from __future__ import annotations

import random

from games.engine.basic_rummy import GAME as BASIC
from games.engine.basic_rummy import choose as basic_choose
from games.engine.basic_rummy import player_view as basic_view
from games.engine.basic_rummy.rules import PRESETS as BASIC_PRESETS
from games.engine.basic_rummy.scenario import position as basic_position
from games.engine.remi import apply, player_view
from games.engine.remi.actions import Discard, Draw, OfferDoubla, Pick, SwapJoly
from games.engine.remi.bots import choose_action
from games.engine.remi.scenario import position
from games.engine.remi.state import PLAY, PRELUDE
from games.engine.thai_rummy import GAME as THAI
from games.engine.thai_rummy import choose as thai_choose
from games.engine.thai_rummy import player_view as thai_view
from games.engine.thai_rummy.scenario import position as thai_position
from games.engine.tiles import parse_tile

from .helpers import bag, rack


def remi_move(state, seat, level):
    return choose_action(player_view(state, seat), level, random.Random(0))


# --- Remi -------------------------------------------------------------------------------------


def test_hard_remi_offers_a_doubla_of_a_pair_that_helps_nothing():
    # The R5 pair has no partner on Ana's rack; the Y7 pair has Y8.
    state = position(["R5 R5 Y7 Y7 Y8 B12 K2", "K9 K9 R1 B3 Y11 Y11 B6"], phase=PRELUDE)
    state.ready = [False, False]
    state.acted = [False, False]
    assert remi_move(state, 0, "hard") == OfferDoubla(parse_tile("R5"), None)


# Ana has melded; the row holds B7 (under K4).  Picking B7 with B5 B6 lays B5 B6 B7 and
# brings K4, which lays K4 K5 K6 at once: six tiles off a rack of six that could lay none.
PICK_RACK = "B5 B6 K5 K6 Y9 R12"


def pick_position(row):
    return position(
        [PICK_RACK, "Y1 Y2 Y3 Y4 Y5 Y6"],
        melds=[("R1 R2 R3", 0)],
        melded=[0],
        discards=row,
        wall="Y10 B2 K1",
    )


def test_hard_remi_picks_from_the_discard_row_when_what_it_brings_is_laid():
    state = pick_position("Y2 B7 K4")
    action = remi_move(state, 0, "hard")
    assert isinstance(action, Pick) and action.index == 1
    after, _ = apply(state, 0, action)
    assert rack(after, 0) == bag("K4 K5 K6 Y9 R12")
    # The normal bot only ever takes the last tile.
    assert not isinstance(remi_move(state, 0, "normal"), Pick)


def test_hard_remi_does_not_pick_when_the_pickup_leaves_its_tiles_stuck():
    # The same B7 now brings five tiles nothing on the rack or the table takes.
    state = pick_position("Y2 B7 K11 Y13 R9 B1 K2")
    assert remi_move(state, 0, "hard") == Draw()


def test_hard_remi_does_not_pick_a_meld_that_leaves_it_further_from_going_out():
    # B12 with B11 B13 lays 36 points, but K5 R7 Y9 K1 would stay: one tile more than the
    # rack holds now that nothing takes.  Drawing keeps the rack as short.
    state = position(
        ["B11 B13 K5 Y3", "Y1 Y2 Y3 Y4 Y5 Y6"],
        melds=[("R1 R2 R3", 0)],
        melded=[0],
        discards="Y2 B12 R7 Y9 K1",
        wall="Y10 B2 K1",
    )
    assert remi_move(state, 0, "hard") == Draw()
    # With no tile more to carry, the same pickup pays.
    state.discards.pop()
    state.discarded_by.pop()
    assert isinstance(remi_move(state, 0, "hard"), Pick)


# Ana has melded and must discard B9, K8 or Y4, none of which helps her rack.  Every B8, Y8,
# R8 and every black 6, 7, 9 and 10 is in the row: K8 makes a meld with no tile Bogdan can
# hold, while B9 and Y4 each make one with many pairs still unseen.
DANGER_ROW = "R8 R8 Y8 Y8 B8 B8 K6 K6 K7 K7 K9 K9 K10 K10"


def danger_position(bogdan):
    return position(
        ["B9 K8 Y4", bogdan],
        melds=[("R5 R6 R7", 0), ("Y10 Y11 Y12", 1)],
        melded=[0, 1],
        discards=DANGER_ROW,
        phase=PLAY,
    )


def test_hard_remi_discards_the_tile_the_next_player_is_least_likely_to_take():
    state = danger_position("Y1 Y2 Y3 Y6 B1 B2 R3 R10 K12 K13")
    assert remi_move(state, 0, "hard") == Discard(parse_tile("K8"))
    assert remi_move(state, 0, "normal") == Discard(parse_tile("B9"))


def test_hard_remi_discards_freely_to_a_player_who_cannot_take():
    # With two tiles left Bogdan may not take from the row: the high tile goes.
    state = danger_position("Y1 Y2")
    assert remi_move(state, 0, "hard") == Discard(parse_tile("B9"))


def test_hard_remi_keeps_the_tile_one_draw_from_going_out():
    # Y10 helps nothing on the rack, but a Y9 drawn next turn lays Y9 Y10 on Ana's run and
    # she goes out discarding K2; keeping K2 or R3 instead leaves no draw that goes out.
    state = position(
        ["Y10 K2 R3", "Y1 Y2 Y3 B6 B1 B2 R4 R10 K12 K13"],
        melds=[("Y6 Y7 Y8", 0), ("B10 B11 B12", 1)],
        melded=[0, 1],
        phase=PLAY,
    )
    assert remi_move(state, 0, "normal") == Discard(parse_tile("Y10"))
    assert remi_move(state, 0, "hard") in (Discard(parse_tile("K2")), Discard(parse_tile("R3")))


def test_hard_remi_frees_a_joly_from_another_players_meld():
    state = position(
        ["R6 K8 Y8 B3", "Y4 Y9 B13"], melds=[("R5 J=R6 R7", 1)], melded=[0, 1], phase=PLAY
    )
    action = remi_move(state, 0, "hard")
    assert isinstance(action, SwapJoly)
    assert action == SwapJoly(0, (parse_tile("R6"),), action.group)
    after, _ = apply(state, 0, action)
    assert rack(after, 0) == bag("B3")


def test_hard_remi_keeps_high_tiles_before_its_first_meld():
    # K2 and B13 help nothing; before a first meld the rack costs a flat penalty, and the
    # 13 counts towards the 50 a first meld needs.  Once melded, the high tile goes.
    racks = ["K2 B13 R7 R8 Y11 Y12", "Y4 Y9 B3"]
    state = position(racks, phase=PLAY)
    assert remi_move(state, 0, "hard") == Discard(parse_tile("K2"))
    assert remi_move(state, 0, "normal") == Discard(parse_tile("B13"))


# --- Basic Rummy ------------------------------------------------------------------------------

FOUR_HANDS = ["7H 7S 7D 2C 5D 9S KH", "2H 3H 4C 8C 9D QD KC"]
STOCK = "4S 8D 10D"


def basic_move(state, level):
    return str(basic_choose(basic_view(state, 0), level, random.Random(0)))


def test_hard_basic_rummy_keeps_its_meld_in_hand_to_go_rummy():
    # Nothing laid yet, nobody near going out: going rummy later doubles the winner's points,
    # and a loser pays nothing for what it holds.
    hands = [*FOUR_HANDS, "AC 2D 3D 5S 6S 8H JC", "4D 6D 9C 10C JD QS KS"]
    state = basic_position(hands, stock=STOCK)
    state, _ = apply_basic(state, "draw")
    assert basic_move(state, "hard").startswith("discard")
    assert not basic_move(state, "hard").endswith("7H")
    assert basic_move(state, "normal").startswith("meld")


def test_hard_basic_rummy_lays_its_meld_once_someone_is_close_to_going_out():
    state = basic_position([*FOUR_HANDS, "AC 2D 3D", "4D 6D 9C 10C JD QS KS"], stock=STOCK)
    state, _ = apply_basic(state, "draw")
    assert basic_move(state, "hard").startswith("meld")


def test_hard_basic_rummy_goes_rummy_when_it_can():
    hands = ["7H 7S 7D 4C 5C 6C", "2H 3H 9D QD KC", "AC 2D 3D 5S 6S", "4D 6D 9C 10C JD"]
    state = basic_position(hands, stock="KD 4S 7C")  # the draw is 7C: all seven meld
    state, _ = apply_basic(state, "draw")
    rng = random.Random(0)
    while not state.over:
        state, _ = BASIC.apply(state, 0, basic_choose(basic_view(state, 0), "hard", rng))
    assert state.result.winner == 0 and state.result.rummy


def test_hard_basic_rummy_draws_rather_than_take_a_card_it_cannot_meld_now():
    # 10H would sit next to 9H for a run to come, but a card from the stock can always be
    # thrown again: the known card is not worth the take.
    hands = ["9H 2S 5D KC 3C QD 7S", "2H 3H 9D QD KC 4D 6D"]
    state = basic_position(hands, discard="10H", stock="4S 8D")
    assert basic_move(state, "hard") == "draw"


def test_hard_basic_rummy_one_meld_a_turn_keeps_the_cards_one_draw_from_going_out():
    # One meld a turn, three cards left after the discard.  Throwing QD (the most points)
    # leaves AS 3D 10D, which no single draw takes out; throwing 3D keeps 10D QD, which a JD
    # melds, with AS as the last discard.
    hands = ["AS 3D QD 10D", "2C 5H 9S KC JH"]
    state = basic_position(
        hands,
        rules=BASIC_PRESETS["one-meld-a-turn"],
        table=["6D 7D 8D"],
        stock="4C 7S",
        discard="KS",
        phase="play",
        melded=[0],
    )
    assert basic_move(state, "normal") == "discard QD"
    assert basic_move(state, "hard") == "discard 3D"
    # With any number of melds a turn the rule does not apply: the points go.
    state = basic_position(
        hands, table=["6D 7D 8D"], stock="4C 7S", discard="KS", phase="play", melded=[0]
    )
    assert basic_move(state, "hard") == "discard QD"


def test_hard_basic_rummy_block_rummy_lays_its_meld_when_the_stock_is_about_to_run_out():
    # Block rummy: when the stock runs out every hand pays its points, the held 7s too.
    # With two cards left in the stock the meld goes down; with eleven it is still held
    # for rummy, as in the default rules.
    hands = [*FOUR_HANDS, "AC 2D 3D 5S 6S 8H JC", "4D 6D 9C 10C JD QS KS"]
    for stock, move in (
        ("4S 8D 10D", "meld"),
        ("4S 8D 10D 2S 3S 4H 5H 6H 7C 8S 10S JS", "discard"),
    ):
        state = basic_position(hands, rules=BASIC_PRESETS["block-rummy"], stock=stock)
        state, _ = apply_basic(state, "draw")
        assert basic_move(state, "hard").startswith(move)
    state = basic_position(hands, stock="4S 8D 10D")
    state, _ = apply_basic(state, "draw")
    assert basic_move(state, "hard").startswith("discard")


def test_hard_basic_rummy_digs_the_pile_only_when_the_cards_above_do_not_swell_its_hand():
    # Rummy 500: 5H melds with 6H 7H.  Two deep, only 8C comes with it and the hand is no
    # longer than after a draw; five deep, four cards it cannot meld come with it.
    hand = "6H 7H 2C 9S KD QS 4C"
    rules = BASIC_PRESETS["rummy-500-pickup"]
    shallow = basic_position([hand, "2H 3H 9D QD KC 4D 6D"], rules=rules, discard="JC 5H 8C")
    assert basic_move(shallow, "hard") == "take 5H with 5H 6H 7H"
    deep = basic_position([hand, "2H 3H 9D QD KC 4D 6D"], rules=rules, discard="5H JC 3D 10S 8C")
    assert basic_move(deep, "hard") == "draw"


def apply_basic(state, notation):
    return BASIC.apply(state, state.turn, notation)


# --- Thai Rummy -------------------------------------------------------------------------------


def thai_move(state, level):
    return str(thai_choose(thai_view(state, 0), level, random.Random(0)))


def test_hard_thai_rummy_holds_its_melds_to_go_out_doubled():
    # Nothing shown; the opponent holds many cards: showing 9s now would give up the doubling.
    hands = ["9S 9H 9D 2C 5D 7H KH JD 3S", "3C 4D 8S 10H JC QC KD 2H 6S"]
    state = thai_position(hands, stock="4H 6C", discard="5S", phase="play")
    assert thai_move(state, "hard").startswith("discard")
    assert not thai_move(state, "hard").startswith("discard 9")
    assert thai_move(state, "normal").startswith("meld")


def test_hard_thai_rummy_shows_its_melds_when_the_opponent_is_close_to_going_out():
    # Showing nothing at all would double the loss too.
    hands = ["9S 9H 9D 2C 5D 7H KH JD 3S", "3C 4D 8S"]
    state = thai_position(hands, stock="4H 6C", discard="5S", phase="play")
    assert thai_move(state, "hard").startswith("meld")


def test_hard_thai_rummy_goes_out_doubled_when_it_can():
    hands = ["9S 9H 9D 4C 5C 6C KH", "3C 4D 8S 10H JC QC KD 2H 6S"]
    state = thai_position(hands, stock="4H 6C", discard="5S", phase="play")
    rng = random.Random(0)
    while not state.over:
        state, _ = THAI.apply(state, 0, thai_choose(thai_view(state, 0), "hard", rng))
    assert state.result.winner == 0 and state.result.doubled[0]


def test_hard_thai_rummy_does_not_dig_a_pile_that_swells_its_hand():
    # 3S lies six deep: it makes 3s with 3H 3D, but the five cards above it fit nothing, so
    # the hand would end the turn with two cards more than a draw from the stock leaves.
    hands = ["3H 3D 8C 10S JD 5H KS", "3C 4D 8S 10H JC QC KD"]
    state = thai_position(hands, stock="4H 6C 2D", discard="3S 6C 9D 7S 4C 8H")
    assert thai_move(state, "hard") == "draw"
    # Two cards shallower, the same 3s cost no more cards than a draw: they are taken.
    state = thai_position(hands, stock="4H 6C 2D", discard="3S 6C 9D 7S")
    assert thai_move(state, "hard") == "take 3S with 3S 3H 3D"


def test_hard_thai_rummy_keeps_the_card_one_draw_from_going_out():
    # After the discard two cards stay.  9S 10S look like the better pair, but the JS or 8S
    # that melds them leaves no card to go out with; 5D goes out on a 6D (both laid off on
    # the diamonds) with 9S or 10S thrown face down.
    state = thai_position(
        ["9S 10S 5D", "3C 4D 8S 10H JC QC KD"],
        table=["5H 6H 7H 8H 9H", "7D 8D 9D 10D JD"],
        stock="4H 6C 2D",
        discard="2C 5S",
        phase="play",
        shown=[0],
    )
    assert thai_move(state, "normal") == "discard 5D"
    assert thai_move(state, "hard") in ("discard 9S", "discard 10S")


def test_hard_thai_rummy_digs_deeper_in_the_pile_than_normal():
    # 5H lies six deep: with 6H 7H it makes a run, and the cards above it make 9s with 9D.
    hands = ["6H 7H 9D 2S KC", "3C 4D 8S"]
    state = thai_position(hands, stock="JD", discard="5H 9C 10S 9S 2D 3C")
    assert thai_move(state, "hard") == "take 5H with 5H 6H 7H"
    assert not thai_move(state, "normal").startswith("take 5H")
