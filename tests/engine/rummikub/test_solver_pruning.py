"""The exact solver's pruning rules (games/engine/rummikub/solver_dp.py), each at its corner.

* Set charges: a tile joining a set bears its share of the set's jokers (in half jokers),
  so two sets that each need a joker cannot both count on one.
* Dominance: a state whose colour has one more open run of 3+, or one open run longer,
  does at least as well; a state falls short when such a state is known to.
* A number's sets sub-step is skipped when no copies go to sets there; the plan is read
  back all the same.

Each is checked on concrete tiles with the bound used from the first state on
(``LOOSE_ROUND = 0``), and on random positions rich in jokers and pairs against the brute
force.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import rummikub_solver as bench
from games.engine.rummikub import solver_dp
from games.engine.rummikub.rules import Rules
from games.engine.rummikub.solver import _BIG, _weights, solve
from games.engine.tiles import COLOURS, Tile, parse_tiles

from .brute import optimum
from .test_solver import EXAMPLES, check_plan

RULES = Rules()


def t(text: str) -> list[Tile]:
    return parse_tiles(text)


@contextmanager
def bound_from_the_start() -> Iterator[None]:
    loose, solver_dp.LOOSE_ROUND = solver_dp.LOOSE_ROUND, 0
    try:
        yield
    finally:
        solver_dp.LOOSE_ROUND = loose


def counts(text: str) -> list[list[int]]:
    rows = [[0] * 14 for _ in COLOURS]
    for tile in t(text):
        rows[COLOURS.index(tile.colour)][tile.number] += 1
    return rows


# --- set charges ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("others", "expected"),
    [
        # Two other colours: a set of three real tiles, no joker; two sets share them out
        # (one partner each, half a joker a set) or one takes both (two jokers for the
        # other): a joker in all.
        ("Y7 B7", (0, 0, 2)),
        # Both others paired: two sets of three real tiles.
        ("Y7 Y7 B7 B7", (0, 0, 0)),
        # One other colour: a real partner and a joker, half of it each.
        ("Y7", (0, 1, 5)),
        # The other colour paired: each of two sets has a real partner and a joker.
        ("Y7 Y7", (0, 1, 2)),
        # Nobody else: the tile bears both jokers of a set of three; two such sets cannot be.
        ("", (0, 4, solver_dp._NO_SET)),
        # A single partner and a pair: two sets of three real tiles and one with a joker.
        ("Y7 Y7 B7", (0, 0, 1)),
    ],
)
def test_set_charges_of_red_seven(others, expected):
    table = counts(others)
    rack = counts("R7 R7")
    assert solver_dp.set_charges(table, rack)[0][7] == expected


def test_two_pairs_cannot_share_one_joker():
    # R7 Y7 and B4 K4 each make a set only with the joker: the bound charges each pair half
    # a joker a tile, so it cannot count on both sets.
    with bound_from_the_start():
        plan = solve([], t("R7 Y7 B4 K4 J"), RULES)
    assert plan is not None
    assert " ".join(map(str, plan.placed)) == "R7 Y7 J"
    assert (plan.tiles, plan.points) == (3, 44)


def test_a_lone_tile_takes_both_jokers():
    # K9 has no partner: a set K9 J J would bear both jokers, leaving R5 R6 none; the bound
    # must not count on both.  The best is the run R5 R6 J J.
    table = [t("B2 B3 B4")]
    rack = t("K9 R5 R6 J J")
    with bound_from_the_start():
        plan = solve(table, rack, RULES)
    assert plan is not None
    assert (plan.tiles, plan.points) == optimum(table, rack, RULES.joker_value) == (4, 71)
    check_plan(plan, table, rack, RULES)


# --- dominance ------------------------------------------------------------------------------


def test_the_codes_that_dominate():
    code = solver_dp._code
    # No open run: one more run of 3+.
    assert solver_dp._dominating(code(0, 0, 0)) == (code(0, 0, 1),)
    # A run of 1 open: one more run of 3+, or that run at 3+, or at 2.
    assert set(solver_dp._dominating(code(1, 0, 0))) == {
        code(1, 0, 1),
        code(0, 0, 1),
        code(0, 1, 0),
    }
    # Three runs of 3+ are the most a colour can have open: only the run of 2 can grow.
    assert solver_dp._dominating(code(0, 1, 3)) == ()


def test_two_runs_of_one_colour_side_by_side():
    # Two red runs over 3-5: at 5 the states differ in how many runs go on and how long
    # they are, so many are dominated; the optimum must survive.
    table = [t("R3 R4 R5"), t("R3 R4 R5 R6 R7")]
    rack = t("R6 R8 Y5 B5")
    with bound_from_the_start():
        plan = solve(table, rack, RULES)
    assert plan is not None
    assert (plan.tiles, plan.points) == optimum(table, rack, RULES.joker_value)
    check_plan(plan, table, rack, RULES)


# --- skipped sets sub-steps -----------------------------------------------------------------


def test_a_plan_with_sets_only_at_the_ends_reads_back():
    # Sets at 1 and 13, runs between: every number without sets was skipped.
    table = [t("R1 Y1 B1"), t("K2 K3 K4"), t("R13 Y13 B13")]
    rack = t("K1 K13 K5")
    with bound_from_the_start():
        plan = solve(table, rack, RULES)
    assert plan is not None and plan.tiles == 3
    check_plan(plan, table, rack, RULES)


@pytest.mark.parametrize(
    ("tally", "expected"),
    [
        # Two single colours: a set of three needs one joker, of four two; with none left
        # they make no set.
        (2, [solver_dp._NO_WAY, 1, solver_dp._SEVERAL]),
        # Three single colours: a set of three as they are, or of four with a joker.
        (3, [0, solver_dp._SEVERAL, solver_dp._SEVERAL]),
        # Four single colours: one set of four; a joker would make five tiles, which no
        # split into sets of three or four holds, but two make two sets of three.
        (4, [0, 0, solver_dp._SEVERAL]),
        # One colour with two copies alone: two sets of one real tile need four jokers.
        (5, [solver_dp._NO_WAY] * 3),
        # Two colours with two copies each: two sets of two real tiles and a joker each.
        (10, [solver_dp._NO_WAY, solver_dp._NO_WAY, 2]),
    ],
)
def test_the_jokers_a_numbers_sets_can_take(tally, expected):
    # By set tally (5 * colours with two copies + colours with one) and jokers left (0-2):
    # the only number of jokers the sets can take, or none, or a choice to search.
    assert solver_dp._ONLY_SET_JOKERS[tally] == expected


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        # Two rack tiles and the rack joker can only make a set of three: the sets
        # sub-step at 7 has one way (one joker) and is skipped; the plan still places it.
        ([], "R7 Y7 J"),
        # The same with a table run: a run tile may join the set instead of the joker.
        (["Y5 Y6 Y7 Y8"], "R7 B7 J"),
        # Two jokers: a set of three or of four, a choice the search makes at the sub-step.
        ([], "R7 Y7 J J"),
        # A second red 7 cannot join the set of 7s (it would need two jokers there): the
        # option giving both red 7s to sets has no way and is dropped; the run takes one.
        (["R7 Y7 B7", "R4 R5 R6"], "R7"),
        # Sets at several numbers, each with one way to take the table joker.
        (["R3 Y3 J", "B9 K9 R9"], "B3 Y9 K3"),
    ],
)
def test_plans_with_skipped_sets_sub_steps_read_back(table, rack):
    melds = [t(m) for m in table]
    for start in (bound_from_the_start, tiny_budgets):
        with start():
            plan = solve(melds, t(rack), RULES)
        assert plan is not None
        assert (plan.tiles, plan.points) == optimum(melds, t(rack), RULES.joker_value)
        check_plan(plan, melds, t(rack), RULES)


# --- random positions rich in jokers and pairs ----------------------------------------------


@st.composite
def crowded_positions(draw: st.DrawFn) -> tuple[list[list[Tile]], list[Tile]]:
    """Few numbers and colours, jokers likely on the table, the rack's tiles often pairs:
    where the charges and dominance have the most to cut."""
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    low = rng.randint(1, 10)
    numbers = range(low, min(13, low + rng.randint(2, 4)) + 1)
    colours = rng.sample(COLOURS, rng.randint(3, 4))
    table, rack = bench.random_position(
        rng, (3, 9), (2, 6), numbers=numbers, colours=colours, joker_chance=0.6
    )
    on_table = [x for meld in table for x in meld]
    singles = [x for x in rack if not x.is_joker and on_table.count(x) + rack.count(x) < 2]
    if singles and rng.random() < 0.5:
        rack.append(rng.choice(singles))  # the tile's second copy
    return table, rack


@settings(
    max_examples=max(1, EXAMPLES // 4),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(crowded_positions(), st.sampled_from(["tiles", "points"]))
def test_pruning_keeps_the_optimum_where_jokers_are_scarce(position, objective):
    table, rack = position
    with bound_from_the_start():
        plan = solve(table, rack, RULES, objective)
    expected = optimum(table, rack, RULES.joker_value, objective)
    assert (None if plan is None else (plan.tiles, plan.points)) == expected
    if plan is not None:
        check_plan(plan, table, rack, RULES)


# --- the race between the two directions ---------------------------------------------------


@contextmanager
def tiny_budgets() -> Iterator[None]:
    """Rounds of a few states each: the two searches take many turns, one is favoured when
    it shows first (in fewer states) that not every rack tile fits, and each resumes with
    the demand the other has lowered."""
    saved = solver_dp.LOOSE_ROUND, solver_dp.FIRST_TIGHT
    solver_dp.LOOSE_ROUND, solver_dp.FIRST_TIGHT = 4, 3
    try:
        yield
    finally:
        solver_dp.LOOSE_ROUND, solver_dp.FIRST_TIGHT = saved


def test_the_search_that_shows_it_in_fewer_states_is_favoured():
    # Not every rack tile fits.  In the same round the upward search shows it after 35
    # states, the downward one after 28: the downward one is favoured (though it showed it
    # second in turn) and, with three times the budget, answers first.
    table = "Y7 B7 R7  R3 R4 R5 R6  Y1 R1 B1 K1  Y3 Y4 Y5"
    rack = "B6 K3 K2 K4 R5"
    weight, joker_weight = _weights(RULES, "tiles")
    with tiny_budgets():
        solution, downwards = solver_dp.run(counts(table), counts(rack), 0, 0, weight, joker_weight)
    assert downwards
    assert solution is not None
    tiles, points = optimum(
        [t(m) for m in ("Y7 B7 R7", "R3 R4 R5 R6", "Y1 R1 B1 K1", "Y3 Y4 Y5")],
        t(rack),
        RULES.joker_value,
    )
    assert solution.score == tiles * _BIG + points == 3 * _BIG + 9


@settings(
    max_examples=max(1, EXAMPLES // 4),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(crowded_positions(), st.sampled_from(["tiles", "points"]))
def test_a_race_of_many_rounds_keeps_the_optimum(position, objective):
    table, rack = position
    with tiny_budgets():
        plan = solve(table, rack, RULES, objective)
    expected = optimum(table, rack, RULES.joker_value, objective)
    assert (None if plan is None else (plan.tiles, plan.points)) == expected
    if plan is not None:
        check_plan(plan, table, rack, RULES)
