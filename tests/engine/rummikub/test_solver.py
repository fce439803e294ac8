"""The exact Rummikub solver (games/engine/rummikub/solver.py).

1. Hand-worked positions with concrete tiles.
2. On small random positions, the solver's optimum equals an independent brute force
   (tests/engine/rummikub/brute.py), for both objectives and the first meld, and its plan
   is a legal table holding exactly the old table and the placed tiles; the same for the
   stricter joker rules (matching, from the rack, locked melds, freed jokers' own melds)
   against a brute force that reads them on the table after the move.
3. Against the rummikub-solver package (tile count): ours is never lower; where it is
   higher, the brute force limited to the package's melds agrees with the package, so the
   difference comes only from melds it leaves out (a 4-set with a joker, a run of 4+ with
   a joker at an end).  Without jokers the two agree on large positions too.
4. The bench runs (quick mode).

400 examples as CI runs it (about 30 s), so CI time stays bounded; ``TEST_SCALE``
(tests/scale.py) multiplies the count for a deeper check.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import rummikub_solver as bench
from games.engine.rummikub import solver_dp
from games.engine.rummikub.rules import (
    JOKER_FREE,
    JOKER_MATCHING,
    JOKER_MATCHING_FROM_RACK,
    Rules,
)
from games.engine.rummikub.solver import Plan, solve
from games.engine.tiles import COLOURS, JOKER, Tile, parse_tiles
from tests.scale import examples

from .brute import optimum, package_reading, strict_optimum

EXAMPLES = examples(400)
RULES = Rules()


def t(text: str) -> list[Tile]:
    return parse_tiles(text)


def table_of(*melds: str) -> list[list[Tile]]:
    return [t(m) for m in melds]


def meld_is_legal(meld: tuple[Tile, ...], stand_ins: tuple[Tile, ...], kind: str) -> bool:
    """The meld with its jokers read as ``stand_ins``, judged by the rules of melds."""
    given_ins = iter(stand_ins)
    read = [next(given_ins) if x.is_joker else x for x in meld]
    if next(given_ins, None) is not None or any(x.is_joker for x in read):
        return False
    if len(read) < 3:
        return False
    if kind == "set":
        return (
            len(read) <= 4
            and len({x.number for x in read}) == 1
            and len({x.colour for x in read}) == len(read)
        )
    first = read[0]
    return (
        all(x.colour == first.colour and x.number == first.number + i for i, x in enumerate(read))
        and first.number >= 1
        and read[-1].number <= 13
    )


def check_plan(plan: Plan, table: list[list[Tile]], rack: list[Tile], rules: Rules) -> None:
    assert len(plan.melds) == len(plan.jokers_as) == len(plan.kinds)
    for meld, stand_ins, kind in zip(plan.melds, plan.jokers_as, plan.kinds, strict=True):
        assert meld_is_legal(meld, stand_ins, kind), (meld, stand_ins, kind)
    on_table = Counter(x for meld in plan.melds for x in meld)
    assert on_table == Counter(x for meld in table for x in meld) + Counter(plan.placed)
    assert not Counter(plan.placed) - Counter(rack)
    assert plan.tiles == len(plan.placed) > 0
    assert plan.points == sum(rules.joker_value if x.is_joker else x.number for x in plan.placed)


def first_meld_total(plan: Plan, table: list[list[Tile]]) -> int:
    new = plan.melds[len(table) :]
    total = 0
    for meld, stand_ins in zip(new, plan.jokers_as[len(table) :], strict=True):
        given_ins = iter(stand_ins)
        total += sum(next(given_ins).number if x.is_joker else x.number for x in meld)
    return total


def placed(plan: Plan | None) -> str:
    return "" if plan is None else " ".join(map(str, plan.placed))


# --- 1. hand-worked positions -------------------------------------------------------------


def test_a_run_is_split_to_take_a_tile():
    table = table_of("R3 R4 R5 R6 R7")
    plan = solve(table, t("R5 K9"), RULES)
    assert plan is not None and placed(plan) == "R5"
    assert sorted(map(list, plan.melds)) == [t("R3 R4 R5"), t("R5 R6 R7")]
    check_plan(plan, table, t("R5 K9"), RULES)


def test_a_joker_is_moved_and_replaced():
    # R3 R4 J: the rack's R5 takes the joker's place, the joker joins Y7 B7.
    table = table_of("R3 R4 J")
    rack = t("R5 Y7 B7 K1")
    plan = solve(table, rack, RULES)
    assert plan is not None and placed(plan) == "R5 Y7 B7"
    check_plan(plan, table, rack, RULES)
    readings = dict(zip(plan.melds, plan.jokers_as, strict=True))
    assert readings[(Tile("Y", 7), Tile("B", 7), Tile("J", 0))][0].number == 7


def test_a_set_of_four_and_no_fifth():
    table = table_of("R5 Y5 B5")
    plan = solve(table, t("K5 K5"), RULES)
    assert plan is not None and placed(plan) == "K5"
    assert plan.melds == (tuple(t("R5 Y5 B5 K5")),)


def test_one_two_three_is_a_run_but_twelve_thirteen_one_is_not():
    plan = solve([], t("R1 R2 R3"), RULES)
    assert plan is not None and plan.tiles == 3
    assert solve([], t("R12 R13 R1"), RULES) is None
    assert solve(table_of("R11 R12 R13"), t("R1 R2"), RULES) is None


def test_tiles_before_value_and_value_breaks_ties():
    # K5 or the joker fit the set of 5s, not both: one tile either way, the joker is worth more.
    plan = solve(table_of("R5 Y5 B5"), t("K5 J"), RULES)
    assert plan is not None and placed(plan) == "J"
    # Three tiles beat one: Y1 Y2 Y3 (6 points) rather than only the joker (30).
    plan = solve(table_of("R5 Y5 B5"), t("Y1 Y2 Y3 J"), RULES, "tiles")
    assert plan is not None and plan.tiles == 4  # Y1 Y2 Y3 J as a run of four


def test_points_can_prefer_fewer_tiles():
    # Y10 Y11 Y12 plus the table's Y13: a run of the rack's 3 tiles (33 points) or, with the
    # R13 B13, a set (Y13 from the table) and no run.  Tiles: 3 vs 2... both fit:
    rack = t("K1 K2 K3 K4 R13 B13")
    table = table_of("Y11 Y12 Y13")
    tiles_plan = solve(table, rack, RULES, "tiles")
    points_plan = solve(table, rack, RULES, "points")
    assert tiles_plan is not None and points_plan is not None
    assert tiles_plan.tiles == 4 and tiles_plan.points == 10  # K1-K4; R13 B13 need Y13
    # Taking Y13 for a set breaks Y11 Y12 Y13, so points cannot have R13 B13 either.
    assert points_plan.points == 10


def test_first_meld_below_and_above_thirty():
    assert solve([], t("R8 R9 R10"), RULES, initial=True) is None  # 27
    plan = solve([], t("R9 R10 R11 K2"), RULES, initial=True)  # 30
    assert plan is not None and placed(plan) == "R9 R10 R11"
    assert solve([], t("R9 R10 R11"), Rules(first_meld_minimum=50), initial=True) is None


def test_first_meld_leaves_the_table_alone():
    table = table_of("Y5 Y6 Y7", "R1 B1 J")
    # Y4 would fit the table's run, but a first meld is new melds from the rack alone.
    assert solve(table, t("Y4 Y8 K10 K11"), RULES, initial=True) is None
    plan = solve(table, t("Y4 K10 K11 K12"), RULES, initial=True)
    assert plan is not None and placed(plan) == "K10 K11 K12"
    assert plan.melds[:2] == tuple(tuple(m) for m in table)
    assert plan.jokers_as[1][0].number == 1


def test_a_joker_in_a_first_meld_counts_as_its_tile():
    plan = solve([], t("R9 R10 J"), RULES, initial=True)
    assert plan is not None and placed(plan) == "R9 R10 J"
    assert first_meld_total(plan, []) == 30  # the joker is R11, not 30
    assert solve([], t("Y1 Y2 J"), RULES, initial=True) is None  # 1 + 2 + 3
    plan = solve([], t("K10 Y10 J"), RULES, initial=True)
    assert plan is not None and first_meld_total(plan, []) == 30
    # A set of 8s with a joker is 24, whichever way the search walks the numbers.
    assert solve([], t("Y8 K8 J Y5"), RULES, initial=True) is None
    assert solve([], t("Y8 K8 J Y5"), Rules(first_meld_minimum=24), initial=True) is not None


def test_nothing_to_place():
    assert solve(table_of("R1 R2 R3"), t("K7 Y12"), RULES) is None
    assert solve([], [], RULES) is None


def test_the_whole_table_is_rearranged():
    # Three runs become three sets to take the rack's K4 and K6, which make no run alone.
    table = table_of("R4 R5 R6", "Y4 Y5 Y6", "B4 B5 B6")
    rack = t("K4 K6")
    plan = solve(table, rack, RULES)
    assert plan is not None and plan.tiles == 2
    check_plan(plan, table, rack, RULES)
    assert set(plan.kinds) == {"set"}


def test_the_plan_does_not_depend_on_the_order_of_tiles():
    table = table_of("R3 R4 R5 R6", "Y7 B7 K7", "J K9 K10")
    rack = t("R7 Y3 K8 B9 J R2 Y8 Y9")
    plan = solve(table, rack, RULES)
    again = solve([m[::-1] for m in table[::-1]], rack[::-1], RULES)
    assert plan == again
    assert plan is not None
    check_plan(plan, table, rack, RULES)


# --- the stricter joker rules -------------------------------------------------------------


def test_a_pinned_joker_is_freed_only_by_its_tile():
    table = table_of("R3 R4 J")
    pins = [t("R5")]
    strict = Rules(joker_replacement=JOKER_MATCHING_FROM_RACK)
    plan = solve(table, t("R5 Y7 B7"), strict, pinned=pins)
    assert plan is not None and placed(plan) == "R5 Y7 B7"
    check_plan(plan, table, t("R5 Y7 B7"), strict)
    # Without R5 the joker stays the R5 of its run, and Y7 B7 have nothing to join.
    assert solve(table, t("Y7 B7"), strict, pinned=pins) is None


def test_matching_may_use_a_table_tile_from_the_rack_rule_may_not():
    table = table_of("R3 R4 J", "R5 R6 R7 R8")
    pins = [t("R5")]
    matching = solve(table, t("Y7 B7"), Rules(joker_replacement=JOKER_MATCHING), pinned=pins)
    assert matching is not None and placed(matching) == "Y7 B7"
    check_plan(matching, table, t("Y7 B7"), RULES)
    strict = Rules(joker_replacement=JOKER_MATCHING_FROM_RACK)
    assert solve(table, t("Y7 B7"), strict, pinned=pins) is None


def test_a_kept_joker_stays_what_it_stands_for():
    table = table_of("R3 R4 J")
    strict = Rules(joker_replacement=JOKER_MATCHING)
    plan = solve(table, t("R6 R7"), strict, pinned=[t("R5")])
    assert plan is not None and placed(plan) == "R6 R7"
    assert plan.jokers_as == ((Tile("R", 5),),)
    with pytest.raises(ValueError):
        solve(table, t("R6"), strict)  # the joker's tile must be given


def pins_of(table: list[list[Tile]]) -> list[list[Tile]]:
    """What each table joker stands for, read from its meld: the missing colours of a set,
    the gap of a run (the test's own reading, one joker a meld)."""
    pins = []
    for meld in table:
        real = [x for x in meld if not x.is_joker]
        for spot, x in enumerate(meld):
            if not x.is_joker:
                continue
            if len({y.number for y in real}) == 1 and len({y.colour for y in real}) == len(real):
                pins.append(
                    [Tile(c, real[0].number) for c in COLOURS if c not in {y.colour for y in real}]
                )
            else:
                first = next(i for i, y in enumerate(meld) if not y.is_joker)
                pins.append([Tile(real[0].colour, meld[first].number - first + spot)])
    return pins


# --- 2. against the brute force -----------------------------------------------------------


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[list[list[Tile]], list[Tile]]:
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    low = rng.randint(1, 9)
    numbers = range(low, min(13, low + rng.randint(3, 6)) + 1)
    colours = rng.sample(COLOURS, rng.randint(2, 4))
    return bench.random_position(
        rng, (0, 9), (1, 6), numbers=numbers, colours=colours, joker_chance=0.35
    )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    small_positions(),
    st.sampled_from(["tiles", "points"]),
    st.booleans(),
    st.sampled_from([30, 12]),
    st.sampled_from([30, 0]),
)
def test_solver_equals_brute_force(position, objective, initial, minimum, joker_value):
    table, rack = position
    rules = Rules(first_meld_minimum=minimum, joker_value=joker_value)
    expected = optimum(table, rack, joker_value, objective, initial=initial, minimum=minimum)
    plan = solve(table, rack, rules, objective, initial=initial)
    assert (None if plan is None else (plan.tiles, plan.points)) == expected
    if plan is None:
        return
    if initial:
        assert plan.melds[: len(table)] == tuple(tuple(m) for m in table)
        new_table = [list(m) for m in plan.melds[len(table) :]]
        check_plan(
            Plan(
                tuple(map(tuple, new_table)),
                plan.jokers_as[len(table) :],
                plan.kinds[len(table) :],
                plan.placed,
                plan.tiles,
                plan.points,
            ),
            [],
            rack,
            rules,
        )
        assert first_meld_total(plan, table) >= minimum
    else:
        check_plan(plan, table, rack, rules)
    assert solve(table[::-1], rack[::-1], rules, objective, initial=initial) == plan or initial


@settings(
    max_examples=max(1, EXAMPLES // 4),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    small_positions(),
    st.sampled_from([JOKER_MATCHING, JOKER_MATCHING_FROM_RACK]),
    st.booleans(),
    st.booleans(),
)
def test_stricter_joker_rules_equal_their_brute_force(position, replacement, locks, own):
    table, rack = position
    strict = Rules(joker_replacement=replacement, joker_locks_meld=locks, freed_joker_own_meld=own)
    pins = pins_of(table)
    plan = solve(table, rack, strict, pinned=pins)
    expected = strict_optimum(
        table,
        rack,
        strict.joker_value,
        pins,
        from_rack=replacement == JOKER_MATCHING_FROM_RACK,
        locks=locks,
        own=own,
    )
    assert (None if plan is None else (plan.tiles, plan.points)) == expected
    if plan is None:
        return
    check_plan(plan, table, rack, strict)
    free = solve(table, rack, RULES)
    assert free is not None and (plan.tiles, plan.points) <= (free.tiles, free.points)
    if replacement == JOKER_MATCHING_FROM_RACK and JOKER not in rack:
        # A joker standing for something else than its tiles was freed by a rack tile.
        pinned_tiles = {x for tiles in pins for x in tiles}
        stand_ins = [x for readings in plan.jokers_as for x in readings]
        moved = sum(1 for x in stand_ins if x not in pinned_tiles)
        freeing = sum(1 for x in plan.placed if x in pinned_tiles)
        assert moved <= freeing


@settings(
    max_examples=max(1, EXAMPLES // 4),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_positions(), st.sampled_from(["tiles", "points"]), st.booleans())
def test_the_per_colour_bound_keeps_the_optimum(position, objective, initial):
    # Small positions are solved before the search turns to the per-colour bound; from the
    # first state on, it must still find the brute force's optimum.
    table, rack = position
    loose, solver_dp.LOOSE_ROUND = solver_dp.LOOSE_ROUND, 0
    try:
        plan = solve(table, rack, RULES, objective, initial=initial)
    finally:
        solver_dp.LOOSE_ROUND = loose
    expected = optimum(table, rack, RULES.joker_value, objective, initial=initial)
    assert (None if plan is None else (plan.tiles, plan.points)) == expected


# --- 3. against the rummikub-solver package ------------------------------------------------


@cache
def package():
    return bench.package_solver()


@settings(
    max_examples=max(1, EXAMPLES // 2),  # each package solve takes tens of milliseconds
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(small_positions())
def test_never_fewer_tiles_than_the_package(position):
    table, rack = position
    plan = solve(table, rack, RULES)
    ours = 0 if plan is None else plan.tiles
    theirs = package()(table, rack)
    assert ours >= theirs
    # The package's count is the optimum over the melds it knows.
    limited = optimum(table, rack, RULES.joker_value, reading=package_reading)
    assert (0 if limited is None else limited[0]) == theirs


@pytest.mark.parametrize("seed", range(6))
def test_same_count_as_the_package_without_jokers(seed):
    rng = random.Random(seed)
    table, rack = bench.random_position(rng, (9, 80), (8, 20), joker_chance=0)
    rack = [x for x in rack if not x.is_joker]
    plan = solve(table, rack, RULES)
    assert (0 if plan is None else plan.tiles) == package()(table, rack)
    if plan is not None:
        check_plan(plan, table, rack, RULES)


# --- 4. the bench ---------------------------------------------------------------------------


def test_the_bench_runs(capsys):
    figures = bench.main(["--quick"])
    assert figures["ours_median"] > 0 and figures["package_median"] > 0
    assert "median ratio" in capsys.readouterr().out


def test_free_rule_needs_no_pins():
    assert RULES.joker_replacement == JOKER_FREE
    assert solve(table_of("J R2 R3"), t("R4"), RULES) is not None


def test_a_freed_joker_starts_a_meld_of_rack_tiles():
    own = Rules(joker_replacement=JOKER_MATCHING_FROM_RACK, freed_joker_own_meld=True)
    table = table_of("R3 R4 J")  # the joker is R5
    plan = solve(table, t("R5 Y7 B7"), own, pinned=[t("R5")])
    assert plan is not None and placed(plan) == "R5 Y7 B7"
    check_plan(plan, table, t("R5 Y7 B7"), own)
    # Freed by R5, the joker could only join the table's R6 R7 R8 or the set of 7s: not
    # allowed, so it stays R5 and the rack's R5 has nowhere to go.
    table = table_of("R3 R4 J", "R7 B7 K7")
    looser = Rules(joker_replacement=JOKER_MATCHING_FROM_RACK)
    assert placed(solve(table, t("R5 Y7"), looser, pinned=[t("R5")])) == "R5 Y7"
    assert placed(solve(table, t("R5 Y7"), own, pinned=[t("R5")])) == "Y7"


LOCKING = Rules(joker_replacement=JOKER_MATCHING_FROM_RACK, joker_locks_meld=True)


def test_a_locked_run_keeps_its_tiles_but_grows():
    table = table_of("R3 R4 R5 J")  # the joker is R6
    # Under the free rule R5 leaves for a set with Y5 B5 and the joker stands in for it.
    assert placed(solve(table, t("Y5 B5"), RULES)) == "Y5 B5"
    assert solve(table, t("Y5 B5"), LOCKING, pinned=[t("R6")]) is None
    plan = solve(table, t("R2 R7 R8"), LOCKING, pinned=[t("R6")])
    assert plan is not None and placed(plan) == "R2 R7 R8"
    assert plan.melds == (tuple(t("R2 R3 R4 R5 J R7 R8")),)
    assert plan.jokers_as == ((Tile("R", 6),),)
    # R6 from the rack frees the joker and unlocks the run.
    plan = solve(table, t("R6 Y5 B5"), LOCKING, pinned=[t("R6")])
    assert plan is not None and plan.tiles == 3
    check_plan(plan, table, t("R6 Y5 B5"), LOCKING)


def test_a_locked_run_takes_in_a_run_it_meets():
    table = table_of("R5 R6 J")  # the joker is R7
    plan = solve(table, t("R3 R4 K1"), LOCKING, pinned=[t("R7")])
    assert plan is not None and placed(plan) == "R3 R4"
    assert plan.melds == (tuple(t("R3 R4 R5 R6 J")),)


def test_a_locked_set_grows_by_a_missing_colour():
    table = table_of("R5 Y5 J")  # the joker is B5 or K5
    pins = [t("B5 K5")]
    plan = solve(table, t("B5 K5"), LOCKING, pinned=pins)
    assert plan is not None and plan.tiles == 1
    check_plan(plan, table, t("B5 K5"), LOCKING)
    assert solve(table, t("R6 R7"), LOCKING, pinned=pins) is None  # R5 cannot leave


DETERMINISM_PROBE = """
import random
from bench.rummikub_solver import random_position
from games.engine.rummikub.rules import JOKER_MATCHING, Rules
from games.engine.rummikub.solver import solve
from tests.engine.rummikub.test_solver import pins_of
rng = random.Random(7)
strict = Rules(joker_replacement=JOKER_MATCHING, joker_locks_meld=True)
for n in range(12):
    table, rack = random_position(rng, (9, 40), (8, 14), joker_chance=0.3)
    print(solve(table, rack, Rules()))
    print(solve(table, rack, strict, pinned=pins_of(table)))
    print(solve(table, rack, Rules(), "points", initial=True))
"""


def test_plans_do_not_depend_on_the_hash_seed():
    root = Path(__file__).resolve().parents[3]

    def run(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        done = subprocess.run(
            [sys.executable, "-c", DETERMINISM_PROBE],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout

    first = run("1")
    assert first.count("Plan(") >= 12
    assert run("2") == first
