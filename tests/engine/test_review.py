"""The review of a finished game by each game's exact planner (``games.engine.core.review``):
positions whose best play is known by hand, the time limit's fallback, and properties over
whole games of every registered game."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES
from games.engine.basic_rummy import scenario as basic_scenario
from games.engine.core.budget import OutOfTime
from games.engine.core.review import (
    FIRST_MELD,
    LAY_OFF,
    PLAYED,
    REARRANGE,
    Measure,
    Reviewer,
    judge,
    review_from,
    review_game,
)
from games.engine.remi import scenario as remi_scenario
from games.engine.remi.state import PLAY
from games.engine.rummikub.melds import classify as classify_tiles
from games.engine.rummikub.rules import RUMMIKUB
from games.engine.rummikub.state import State as RummikubState
from games.engine.thai_rummy import scenario as thai_scenario
from games.engine.tiles import parse_tiles
from tests.scale import examples

# Random games as CI plays them; TEST_SCALE (tests/scale.py) multiplies them.
RANDOM_GAMES = examples(8)


def untimed() -> float:
    return 0.0  # a clock that never moves: no time limit is ever reached


def ticking(step: float = 1.0):
    """A clock that moves ``step`` seconds each time it is read: a limit of less than a
    step runs out at the solver's first look."""
    counter = itertools.count()
    return lambda: next(counter) * step


def review_position(key: str, state, moves: list[tuple[int, str]], **kwargs):
    engine = GAMES[key]
    options = {"clock": untimed, "limit": 10.0, **kwargs}
    return review_from(engine, state, moves, **options)


# --- positions known by hand ------------------------------------------------------------------


def test_remi_missed_first_meld_is_flagged_with_its_points():
    # Seat 0 has drawn: R10 R11 R12 R13 is a run of 40 on the first-meld scale, K5 B5 Y5 a set
    # of 15: 55, over the 50 a first meld needs.  K2, B9 and Y12 join nothing.  It discards.
    state = remi_scenario.position(
        ["R10 R11 R12 R13 K5 B5 Y5 K2 B9 Y12", "K1 K3 K4 B7 B8"],
        wall="R1 R2 R3 R4",
        discards="Y9",
        phase=PLAY,
        turn=0,
    )
    review = review_position("remi", state, [(0, "discard K2")])
    (turn,) = review.turns
    assert turn.seat == 0 and turn.step == 0
    assert turn.played == Measure(0, 0)
    assert turn.best.measure == Measure(7, 55)
    assert turn.best.kind == FIRST_MELD and turn.best.exact
    assert turn.best.params["points"] == 55
    assert sorted(turn.best.placed) == sorted(["R10", "R11", "R12", "R13", "K5", "B5", "Y5"])
    assert turn.flag == FIRST_MELD and turn.missed == Measure(7, 55)
    assert turn.position["rack"] == [
        "R10",
        "R11",
        "R12",
        "R13",
        "K5",
        "B5",
        "Y5",
        "K2",
        "B9",
        "Y12",
    ]
    (mine, other) = review.summary()
    assert (mine.accuracy, mine.flagged, other.turns) == (0, 1, 0)


def test_remi_first_meld_made_leaves_nothing_missed():
    state = remi_scenario.position(
        ["R10 R11 R12 R13 K5 B5 Y5 K2 B9 Y12", "K1 K3 K4 B7 B8"],
        wall="R1 R2 R3 R4",
        phase=PLAY,
        turn=0,
    )
    moves = [(0, "meld R10 R11 R12 R13 | K5 B5 Y5"), (0, "discard K2")]
    (turn,) = review_position("remi", state, moves).turns
    assert turn.played == Measure(7, 55) and turn.flag is None
    assert turn.played_actions == ("meld R10 R11 R12 R13 | K5 B5 Y5", "discard K2")


def rummikub_position(rack: str, table: list[str], *, melded: bool = True) -> RummikubState:
    return RummikubState(
        rules=RUMMIKUB,
        seats=["Ana", "Bogdan"],
        seed="scenario",
        stock=parse_tiles("K13 Y1 B2 K4 R11 Y6"),
        racks=[parse_tiles(rack), parse_tiles("K1 K2 Y3 B9 B10")],
        table=[classify_tiles(parse_tiles(m), RUMMIKUB) for m in table],
        melded=[melded, True],
    )


@pytest.mark.parametrize(
    ("played", "laid"),
    [("draw", 0), ("play R3 R4 R5 R6 R7 R8 R9", 1)],
)
def test_rummikub_rearrangement_that_lays_three_tiles(played, laid):
    # The run R3..R8 gives up its R3 to a set with the rack's B3 and K3, and R9 grows the
    # rest: three tiles, which only rearranging the table allows (Y12 fits nowhere).  The
    # player drew, or only laid R9 off.
    state = rummikub_position("B3 K3 R9 Y12", ["R3 R4 R5 R6 R7 R8"])
    (turn,) = review_position("rummikub", state, [(0, played)]).turns
    assert turn.best.measure == Measure(3, 3 + 3 + 9)
    assert turn.best.kind == REARRANGE and turn.best.exact
    assert sorted(turn.best.placed) == ["B3", "K3", "R9"]
    assert turn.played.pieces == laid
    assert turn.missed.pieces == 3 - laid and turn.flag == REARRANGE


def test_rummikub_lay_off_without_rearranging_is_no_rearrangement():
    state = rummikub_position("R9 Y12", ["R3 R4 R5 R6 R7 R8"])
    (turn,) = review_position("rummikub", state, [(0, "draw")]).turns
    assert turn.best.measure == Measure(1, 9) and turn.best.kind == LAY_OFF


def test_basic_rummy_missed_lay_offs():
    # Seat 0 has drawn; 9D grows the diamonds, QD completes the queens: two cards (9 and 10
    # points) it could have laid off.  It discards 5S.
    state = basic_scenario.position(
        ["9D QD 2C 5S", "3H 4C 8S"],
        table=["6D 7D 8D", "QH QS QC"],
        stock="KS KH KC",
        discard="4H",
        phase="play",
        played_before=[0, 1],
        melded=[0, 1],
    )
    (turn,) = review_position("basic-rummy", state, [(0, "discard 5S")]).turns
    assert turn.best.kind == LAY_OFF and turn.best.measure == Measure(2, 19)
    assert sorted(turn.best.placed) == ["9D", "QD"]
    assert turn.missed == Measure(2, 19) and turn.flag == LAY_OFF
    assert turn.position["table"] == ["6D 7D 8D", "QH QS QC"]


def test_thai_rummy_missed_lay_off():
    state = thai_scenario.position(
        ["9D 2C 5S KH", "3H 4C 8S"],
        table=["6D 7D 8D"],
        stock="KS QC JC",
        discard="4H",
        phase="play",
    )
    (turn,) = review_position("thai-rummy", state, [(0, "discard 5S")]).turns
    assert turn.best.kind == LAY_OFF and turn.best.measure.pieces == 1
    assert turn.best.placed == ("9D",) and turn.flag == LAY_OFF


# --- the time limit ---------------------------------------------------------------------------


def test_rummikub_out_of_time_falls_back_to_the_bounded_search_and_says_so():
    state = rummikub_position("B3 K3 R9 Y12", ["R3 R4 R5 R6 R7 R8"])
    (turn,) = review_position("rummikub", state, [(0, "draw")], clock=ticking(), limit=0.5).turns
    assert not turn.best.exact
    # The bounded search rearranges too, so it finds the same three tiles here.
    assert turn.best.measure.pieces == 3


def test_card_planner_out_of_time_keeps_the_best_found_and_says_so():
    state = basic_scenario.position(
        ["9D 10D JD QD KD QH QS QC 2C 5S", "3H 4C 8S"],
        table=["6D 7D 8D"],
        stock="KS KH KC",
        phase="play",
        played_before=[0, 1],
        melded=[0, 1],
    )
    timed = review_position("basic-rummy", state, [(0, "discard 5S")], clock=ticking(), limit=0.5)
    exact = review_position("basic-rummy", state, [(0, "discard 5S")])
    (quick,), (full,) = timed.turns, exact.turns
    assert full.best.exact and not quick.best.exact
    assert quick.best.measure.key() <= full.best.measure.key()
    assert timed.summary()[0].inexact == 1 and exact.summary()[0].inexact == 0


class Stuck(Reviewer):
    """Remi's reviewer with planners that never finish: they give up only when told."""

    unit = "tiles"

    def __init__(self) -> None:
        self.remi = GAMES["remi"].reviewer()

    def decides(self, view):
        return self.remi.decides(view)

    def table(self, view):
        return self.remi.table(view)

    def position(self, view):
        return self.remi.position(view)

    def best(self, view, stop):
        while not stop():
            pass
        raise OutOfTime

    def fallback(self, view, stop):
        return self.best(view, stop)


class StuckRemi(type(GAMES["remi"])):
    def reviewer(self):
        return Stuck()


def test_judge_raises_out_of_time_when_neither_planner_finishes():
    with pytest.raises(OutOfTime):
        judge(Stuck(), {}, ticking(), 0.5)


def test_a_turn_with_no_plan_in_time_keeps_what_was_played_as_best():
    state = remi_scenario.position(
        ["R10 R11 R12 R13 K5 B5 Y5 K2 B9 Y12", "K1 K3 K4 B7 B8"],
        wall="R1 R2 R3 R4",
        phase=PLAY,
        turn=0,
    )
    moves = [(0, "meld R10 R11 R12 R13 | K5 B5 Y5"), (0, "discard K2")]
    review = review_from(StuckRemi(), state, moves, clock=ticking(), limit=0.5)
    (turn,) = review.turns
    assert turn.best.kind == PLAYED and not turn.best.exact
    assert turn.best.measure == turn.played == Measure(7, 55)
    assert turn.missed == Measure() and review.summary()[0].inexact == 1


# --- every game, through the protocol ---------------------------------------------------------


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_has_a_reviewer(key):
    reviewer = GAMES[key].reviewer()
    assert isinstance(reviewer, Reviewer)
    assert reviewer.unit in ("tiles", "cards")


def bot_game(key: str, players: int, seed: int):
    """A game played to its end by bots of random levels."""
    engine = GAMES[key]
    rules = engine.presets[engine.default_preset]
    state = engine.new_game(rules, players, f"review-{seed}")
    start = state
    rng = random.Random(seed)
    levels = [rng.choice(engine.bot_levels) for _ in range(players)]
    moves: list[tuple[int, str]] = []
    states = [state]
    while engine.to_act(state):
        assert len(moves) < 4000
        seat = rng.choice(sorted(engine.to_act(state)))
        action = engine.choose(engine.player_view(state, seat), levels[seat], rng)
        state, _ = engine.apply(state, seat, action)
        moves.append((seat, str(action)))
        states.append(state)
    return engine, rules, start, moves, states


@settings(
    max_examples=RANDOM_GAMES,
    deadline=None,
    derandomize=False,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    key=st.sampled_from(sorted(GAMES)),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_best_play_is_legal_lays_what_it_says_and_is_never_worse_than_the_play(key, players, seed):
    engine, rules, start, moves, states = bot_game(key, players, seed)
    ctx = engine.ctx(start)
    review = review_game(
        engine,
        rules,
        ctx.seats,
        ctx.seed,
        moves,
        dealer=ctx.dealer,
        clock=time.process_time,
        limit=5.0,
    )
    reviewer = engine.reviewer()
    for turn in review.turns:
        before = states[turn.step]
        view = engine.player_view(before, turn.seat)
        assert reviewer.decides(view)
        # The position shown is the seat's own rack or hand, nothing else.
        assert turn.position == reviewer.position(view)
        assert turn.best.measure.key() >= turn.played.key()
        assert turn.missed.pieces >= 0 and turn.missed.points >= 0
        if turn.best.kind == PLAYED or not turn.best.actions:
            continue
        # The planner's play is one the engine accepts, and lays what the review says.
        state = before
        for action in turn.best.actions:
            state, _ = engine.apply(state, turn.seat, action)
        laid = reviewer.table(engine.player_view(state, turn.seat)) - reviewer.table(view)
        assert laid == turn.best.measure, (key, turn.to_dict())
    for summary in review.summary():
        assert 0 <= summary.accuracy <= 100
        assert summary.laid.pieces <= summary.best.pieces
