"""The exact placement solver (games/engine/remi/solver.py).

1. Hand-worked positions (values by rule 8: 2-9 are 5, 10-13 are 10, a 1 is 5 low, 10 high,
   25 in a set; a Joly is worth the tile it stands for).
2. The solver equals a brute force on small racks.  The brute force shares nothing with the
   solver: it tries every way to split every sub-multiset of the rack into groups and lets the
   engine's ``classify``/``extend`` judge each group.
3. On thousands of positions from random games, the plan is accepted by ``apply`` action by
   action, keeps a tile to discard, and a first meld reaches the minimum with a run.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import InvalidMeld
from games.engine.remi import REMI, Group, Rules, apply, classify, parse_tiles
from games.engine.remi.melds import RUN, Meld, extend
from games.engine.remi.randomplay import play_random_game
from games.engine.remi.rules import PRESETS
from games.engine.remi.solver import EMPTY_PLAN, Plan, solve
from games.engine.remi.state import PLAY, USE_DISCARD, State
from games.engine.tiles import COLOURS, JOKER, Tile, sort_key
from tests.scale import examples


def meld(text: str) -> Meld:
    group = Group.of(text)
    return classify(group.tiles, REMI, group.designations())


def tiles(text: str) -> list[Tile]:
    return parse_tiles(text)


def placed(plan: Plan) -> list[str]:
    """The plan's groups as sorted notation, for order-free comparisons."""
    groups = [str(g) for g in plan.melds] + [f"add {i} {g}" for i, g in plan.additions]
    return sorted(groups)


def check_plan(plan: Plan, rack: list[Tile], table: list[Meld]) -> None:
    """The plan's groups are legal, use tiles the rack holds, and add up to its totals."""
    points = 0
    used: list[Tile] = []
    for group in plan.melds:
        points += classify(group.tiles, REMI, group.designations()).points
        used.extend(group.tiles)
    assert len({i for i, _ in plan.additions}) == len(plan.additions)
    for index, group in plan.additions:
        grown = extend(table[index], group.tiles, group.designations())
        points += grown.points - table[index].points
        used.extend(group.tiles)
    left = list(rack)
    for tile in used:
        left.remove(tile)
    assert plan.points == points
    assert plan.tiles == len(used)


# --- 1. hand-worked positions -------------------------------------------------------------


def test_first_meld_takes_every_meld_and_keeps_the_odd_tile():
    # 1-2-3 is 15, the set of 5s 15, 9-10-11 is 5+10+10 = 25: 55 from nine tiles, K7 kept.
    rack = tiles("R1 R2 R3 K5 B5 Y5 R9 R10 R11 K7")
    plan = solve(rack, [], REMI, first_meld=True)
    assert plan is not None
    assert (plan.points, plan.tiles) == (55, 9)
    assert placed(plan) == ["R1 R2 R3", "R9 R10 R11", "Y5 B5 K5"]
    assert plan.additions == ()
    check_plan(plan, rack, [])


def test_no_first_meld_below_the_minimum():
    # 15 + 15 = 30 < 50.
    assert solve(tiles("R1 R2 R3 K5 B5 Y5 K7"), [], REMI, first_meld=True) is None


def test_no_first_meld_without_a_run():
    # Sets of 13s and 12s are 40 + 30 = 70, but no run can be made.
    rack = tiles("R13 B13 K13 Y13 Y12 K12 B12 R2")
    assert solve(rack, [], REMI, first_meld=True) is None
    no_run_needed = REMI.with_options(first_meld_needs_run=False)
    plan = solve(rack, [], no_run_needed, first_meld=True)
    assert plan is not None and (plan.points, plan.tiles) == (70, 7)


def test_the_first_meld_minimum_follows_the_rules():
    rack = tiles("R11 R12 R13 B5 K5 Y5 K2")  # 30 + 15 = 45
    assert solve(rack, [], REMI, first_meld=True) is None
    plan = solve(rack, [], PRESETS["remi-45"], first_meld=True)
    assert plan is not None and plan.points == 45


def test_first_meld_prefers_a_run_even_when_sets_are_worth_more():
    # The set of 1s (75) uses R1, leaving R2 R3 R4 (15): 90 with a run.  The first meld may not
    # be sets alone, but here it needs not be: both reach the minimum with a run.
    rack = tiles("R1 B1 K1 R2 R3 R4 B2 B3 K9")
    plan = solve(rack, [], REMI, first_meld=True)
    assert plan is not None
    assert (plan.points, plan.tiles) == (90, 6)
    assert placed(plan) == ["R1 B1 K1", "R2 R3 R4"]


def test_objective_tiles_places_more_tiles_for_fewer_points():
    rack = tiles("R1 B1 K1 R2 R3 R4 B2 B3 K9")
    by_points = solve(rack, [], REMI, first_meld=False)
    by_tiles = solve(rack, [], REMI, first_meld=False, objective="tiles")
    assert by_points is not None and (by_points.points, by_points.tiles) == (90, 6)
    # R1-R4 (20) and B1 B2 B3 (15): seven tiles; K1 has nowhere to go.
    assert by_tiles is not None and (by_tiles.points, by_tiles.tiles) == (35, 7)
    assert placed(by_tiles) == ["B1 B2 B3", "R1 R2 R3 R4"]


def test_first_meld_with_objective_tiles_still_needs_the_minimum():
    # Seven tiles are only worth 35; the most tiles worth 50 or more is six (90).
    rack = tiles("R1 B1 K1 R2 R3 R4 B2 B3 K9")
    plan = solve(rack, [], REMI, first_meld=True, objective="tiles")
    assert plan is not None and (plan.points, plan.tiles) == (90, 6)


def test_additions_to_table_melds_place_tiles_no_new_meld_can():
    table = [meld("Y9 Y10 Y11"), meld("K6 K7 K8"), meld("R2 B2 Y2")]
    rack = tiles("Y12 Y13 K4 K5 K2 R7")
    plan = solve(rack, table, REMI, first_meld=False)
    assert plan is not None
    # Y12 Y13 on meld 0 (20), K4 K5 on meld 1 (10), K2 on the set of 2s (5); R7 is kept.
    assert (plan.points, plan.tiles) == (35, 5)
    assert plan.melds == ()
    assert placed(plan) == ["add 0 Y12 Y13", "add 1 K4 K5", "add 2 K2"]
    check_plan(plan, rack, table)
    assert solve(rack, table, REMI, first_meld=False, may_add=False) == EMPTY_PLAN
    assert solve(rack, table, REMI, first_meld=True) is None


def test_two_copies_of_a_one_go_low_in_a_new_run_and_high_on_a_table_run():
    table = [meld("B11 B12 B13")]
    rack = tiles("B1 B2 B3 B1 K7")
    plan = solve(rack, table, REMI, first_meld=False)
    assert plan is not None
    assert (plan.points, plan.tiles) == (25, 4)
    assert placed(plan) == ["B1 B2 B3", "add 0 B1"]
    check_plan(plan, rack, table)


def test_a_table_run_grows_at_both_ends_in_one_addition():
    table = [meld("B9 B10 J=B11")]
    rack = tiles("B8 B12 K2")
    plan = solve(rack, table, REMI, first_meld=False)
    assert plan is not None
    assert plan.additions == ((0, Group(tuple(tiles("B8 B12")))),)
    assert (plan.points, plan.tiles) == (15, 2)


def test_a_joly_is_added_to_a_table_run_with_its_designation():
    table = [meld("R10 R11 R12")]
    rack = tiles("J K2 Y5")
    plan = solve(rack, table, REMI, first_meld=False)
    assert plan is not None
    # J=R13 or J=R9... the high end is worth 10, J=R9 only 5.
    assert plan.additions == ((0, Group.of("J=R13")),)
    assert (plan.points, plan.tiles) == (10, 1)
    check_plan(plan, rack, table)


def test_sets_take_a_missing_colour_or_a_joly():
    table = [meld("R7 B7 J"), meld("R8 B8 K8"), meld("R9 B9 K9 Y9")]
    rack = tiles("K7 J K2 B5 R12")
    plan = solve(rack, table, REMI, first_meld=False, objective="tiles")
    assert plan is not None
    # Meld 0 (two and a Joly) takes K7 but not the Joly, meld 1 takes the Joly, meld 2 is full.
    assert (plan.points, plan.tiles) == (10, 2)
    assert placed(plan) == ["add 0 K7", "add 1 J"]
    check_plan(plan, rack, table)
    # With Y7 as well, K7 Y7 J is a new set (15) and beats both additions (10).
    plan = solve([*rack, Tile("Y", 7)], table, REMI, first_meld=False)
    assert plan is not None and (plan.points, plan.tiles) == (15, 3)


def test_a_joly_in_a_first_meld_run_is_designated_and_valued():
    # R12 R13 J reads J=R11 or J=R1 high: 30 either way; with the 10s (30) that is 60.
    rack = tiles("R12 R13 J Y10 B10 K10 K3")
    plan = solve(rack, [], REMI, first_meld=True)
    assert plan is not None
    assert (plan.points, plan.tiles) == (60, 6)
    run = next(g for g in plan.melds if JOKER in g.tiles)
    assert len(run.jokers_as) == 1 and run.jokers_as[0] in (Tile("R", 11), Tile("R", 1))
    check_plan(plan, rack, [])


def test_a_joly_takes_the_reading_the_engine_prefers_among_equals():
    # R2 R3 J: J=R1 and J=R4 are both worth 5; like the engine, keep the run open (J=R4).
    plan = solve(tiles("J R2 R3 K9"), [], REMI, first_meld=False)
    assert plan is not None and [str(g) for g in plan.melds] == ["R2 R3 J=R4"]
    plan = solve(tiles("J K9"), [meld("R5 R6 R7")], REMI, first_meld=False)
    assert plan is not None and plan.additions == ((0, Group.of("J=R8")),)


def test_a_joly_may_stand_in_for_a_tile_the_rack_holds():
    # The only way to place six: R4 J=R5 R6 and R5 B5 J (two Jolys, one per meld).
    rack = tiles("R4 R5 R6 B5 J J K9")
    plan = solve(rack, [], REMI, first_meld=False, objective="tiles")
    assert plan is not None
    assert (plan.points, plan.tiles) == (30, 6)
    check_plan(plan, rack, [])


def test_keep_a_discard_a_rack_that_is_one_meld_cannot_all_go():
    assert solve(tiles("R5 R6 R7"), [], REMI, first_meld=False) == EMPTY_PLAN
    plan = solve(tiles("R5 R6 R7 R8"), [], REMI, first_meld=False)
    assert plan is not None and plan.tiles == 3
    # Seven tiles make R10-R13 and Y13 B13 K13 (70): one must stay, so R10 goes back (60).
    rack = tiles("R10 R11 R12 R13 Y13 B13 K13")
    first = solve(rack, [], REMI, first_meld=True)
    assert first is not None and (first.points, first.tiles) == (60, 6)
    # Either R10 or one 13 stays: R11-R13 with the set of 13s, or R10-R12 with R13 Y13 B13.
    assert placed(first) in (["R11 R12 R13", "Y13 B13 K13"], ["R10 R11 R12", "R13 Y13 B13"])
    assert solve(rack, [], REMI, first_meld=True, keep=0).tiles == 7
    # Keeping two leaves five tiles: R10-R13 (40) or the four 13s (40, no run) fall short.
    assert solve(rack, [], REMI, first_meld=True, keep=2) is None


def test_must_use_forces_a_taken_discard_into_the_first_meld():
    rack = tiles("R11 R12 R13 Y13 B13 K13 R10 K4 K5 K6")
    plan = solve(rack, [], REMI, first_meld=True, must_use=[Tile("K", 6)])
    assert plan is not None and "K4 K5 K6" in placed(plan)
    # All ten make 85, but a tile must stay: R10 (or a 13) goes back, 75.
    assert (plan.points, plan.tiles) == (75, 9)
    # A tile that fits no meld cannot be forced in; a tile not on the rack is an error.
    with_two = [*rack, Tile("R", 2)]
    assert solve(with_two, [], REMI, first_meld=True, must_use=tiles("R2")) is None
    with pytest.raises(ValueError):
        solve(rack, [], REMI, first_meld=True, must_use=tiles("B2"))


def test_empty_plan_when_nothing_fits_and_bad_objective_refused():
    plan = solve(tiles("R2 B7 K11"), [meld("Y4 Y5 Y6")], REMI, first_meld=False)
    assert plan == EMPTY_PLAN and plan.actions() == []
    with pytest.raises(ValueError):
        solve(tiles("R2 B7 K11"), [], REMI, first_meld=False, objective="fun")


def test_actions_meld_first_then_one_add_per_meld():
    table = [meld("Y9 Y10 Y11"), meld("K6 K7 K8")]
    rack = tiles("Y12 K5 R1 R2 R3 B4")
    plan = solve(rack, table, REMI, first_meld=False)
    assert plan is not None
    assert [str(a) for a in plan.actions()] == ["meld R1 R2 R3", "add 0 Y12", "add 1 K5"]


def test_same_input_same_plan_whatever_the_rack_order():
    rack = tiles("R4 R5 R6 R7 B5 K5 Y5 J B9 B10 K10 Y10 R10 J")
    table = [meld("R8 R9 J=R10"), meld("B1 B2 B3"), meld("B1 B2 B3")]
    shuffled = [random.Random(n).sample(rack, len(rack)) for n in range(4)]
    plans = {solve(r, table, REMI, first_meld=False) for r in [rack, rack, *shuffled]}
    assert len(plans) == 1


def test_identical_table_melds_are_both_extended():
    # Two B1 B2 B3 on the table: B4 goes on one, the other B4 on the other.
    table = [meld("B1 B2 B3"), meld("R9 R10 R11"), meld("B1 B2 B3")]
    plan = solve(tiles("B4 B4 K7"), table, REMI, first_meld=False)
    assert plan is not None and placed(plan) == ["add 0 B4", "add 2 B4"]


def test_racks_the_game_cannot_deal_are_refused():
    with pytest.raises(ValueError):
        solve(tiles("J J J R5 R6"), [], REMI, first_meld=False)


# --- 2. the solver against a brute force ----------------------------------------------------


def brute_force(
    rack: list[Tile],
    table: list[Meld],
    rules: Rules,
    *,
    first_meld: bool,
    may_add: bool,
    objective: str,
    keep: int,
) -> tuple[int, int] | None:
    """(points, tiles) of the best plan, by trying everything.

    Every rack tile is either kept or put in a group with other rack tiles; each group is a new
    meld (``classify``) or an addition to one table meld (``extend``), each table meld at most
    once.  A group's Jolys are tried with every designation.  Every reachable outcome
    (points, tiles, has a run) is collected, then the best legal one is picked.
    """
    add = may_add and not first_meld

    def readings(group: tuple[Tile, ...], target: Meld | None) -> list[Meld]:
        jokers = sum(t.is_joker for t in group)
        choices: list[list[Tile | None]] = [[None] * jokers]
        # Every designation a run's Jolys could have: any tile of the run's colour (the engine
        # refuses the impossible ones).  A set's Jolys are never designated.
        colours = {t.colour for t in group if not t.is_joker}
        if jokers and len(colours) == 1:
            every = [Tile(c, n) for c in colours for n in range(1, 14)]
            choices += [list(d) for d in product(every, repeat=jokers)]
        found = []
        for designation in choices:
            try:
                if target is None:
                    found.append(classify(group, rules, designation))
                else:
                    found.append(extend(target, group, designation))
            except InvalidMeld:
                continue
        return found

    @cache
    def outcomes(remaining: tuple[Tile, ...], used: frozenset[int]) -> frozenset:
        if not remaining:
            return frozenset({(0, 0, False)})
        first, rest = remaining[0], remaining[1:]
        found = set(outcomes(rest, used))  # keep ``first`` on the rack
        subsets = {
            tuple(rest[i] for i in chosen)
            for size in range(len(rest) + 1)
            for chosen in combinations(range(len(rest)), size)
        }
        for others in subsets:
            group = (first, *others)
            real = [t for t in group if not t.is_joker]
            # A group is one colour or one number (a quick filter; classify decides).
            if len({t.colour for t in real}) > 1 and len({t.number for t in real}) > 1:
                continue
            left = list(rest)
            for tile in others:
                left.remove(tile)
            left_key = tuple(left)
            targets: list[int | None] = [None]
            if add:
                targets += [i for i in range(len(table)) if i not in used]
            for target in targets:
                base = None if target is None else table[target]
                melds = readings(group, base)
                if not melds:
                    continue
                value = max(m.points - (base.points if base else 0) for m in melds)
                is_run = target is None and melds[0].kind == RUN
                after = used if target is None else used | {target}
                for points, count, run in outcomes(left_key, after):
                    found.add((points + value, count + len(group), run or is_run))
        return frozenset(found)

    ordered = tuple(sorted(rack, key=sort_key))
    best = None
    for points, count, has_run in outcomes(ordered, frozenset()):
        if len(rack) - count < keep:
            continue
        if first_meld:
            if count == 0 or points < rules.first_meld_minimum:
                continue
            if rules.first_meld_needs_run and not has_run:
                continue
        key = (points, count) if objective == "points" else (count, points)
        if best is None or key > best[0]:
            best = (key, (points, count))
    return None if best is None else best[1]


def neighbours(made: Meld) -> list[Tile]:
    """Tiles that could extend a meld: two beyond each end of a run, a set's other colours."""
    if made.kind == RUN:
        first, last = made.start, made.start + len(made.tiles) - 1
        positions = [p for p in (first - 2, first - 1, last + 1, last + 2) if 1 <= p <= 14]
        return [Tile(made.colour, 1 if p == 14 else p) for p in positions]
    return [Tile(c, made.number) for c in COLOURS]


@st.composite
def small_positions(draw, adding: bool = False):
    """A few colours and a window of numbers (so melds are likely), up to three table melds,
    and a rack of five to nine tiles from the window and the tiles next to the table melds,
    with up to two Jolys; no tile more than twice in all.  ``adding``: a later turn with at least
    one table meld, where additions are allowed."""
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4, unique=True))
    low = draw(st.integers(1, 11))
    numbers = list(range(low, min(13, low + draw(st.integers(2, 5))) + 1))
    if numbers[-1] >= 12:
        numbers.append(1)  # the window reaches the high 1
    kinds = {Tile(c, n) for c in colours for n in numbers}
    table: list[Meld] = []
    on_table: list[Tile] = []
    wanted = draw(st.integers(1 if adding else 0, 3))
    for _ in range(8):  # a few tries: a drawn shape may not be a legal meld
        if len(table) >= wanted:
            break
        if draw(st.booleans()):
            colour = draw(st.sampled_from(colours))
            start = draw(st.integers(1, 12))
            length = draw(st.integers(3, 5))
            positions = range(start, min(14, start + length - 1) + 1)
            group = [Tile(colour, 1 if p == 14 else p) for p in positions]
        else:
            number = draw(st.sampled_from(numbers))
            chosen = draw(st.lists(st.sampled_from(COLOURS), min_size=3, max_size=4, unique=True))
            group = [Tile(c, number) for c in chosen]
        if on_table.count(JOKER) < 1 and draw(st.booleans()):
            group[draw(st.integers(0, len(group) - 1))] = JOKER
        if any(on_table.count(t) + group.count(t) > 2 for t in group):
            continue
        try:
            made = classify(group)
        except InvalidMeld:
            continue
        on_table.extend(group)
        table.append(made)
        kinds.update(neighbours(made))
    pool = [t for t in sorted(kinds, key=sort_key) for _ in range(2 - on_table.count(t))]
    order = draw(st.permutations(range(len(pool))))
    jokers = min(2 - on_table.count(JOKER), draw(st.sampled_from([0, 1, 1, 2])))
    # Two Jolys multiply the brute force's work: keep those racks a little smaller.
    rack = [pool[i] for i in order[: draw(st.integers(5, 9 - 2 * (jokers == 2)))]]
    rack += [JOKER] * jokers
    options = {
        "first_meld": False if adding else draw(st.booleans()),
        "may_add": True if adding else draw(st.booleans()),
        "objective": draw(st.sampled_from(["points", "tiles"])),
        "keep": draw(st.sampled_from([1, 1, 1, 0, 2])),
    }
    rules = Rules(
        first_meld_minimum=draw(st.sampled_from([15, 25, 30, 45, 50])),
        first_meld_needs_run=draw(st.booleans()),
    )
    return rack, table, rules, options


@settings(
    max_examples=examples(600),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(small_positions())
def test_solver_equals_brute_force_on_small_racks(position):
    rack, table, rules, options = position
    expected = brute_force(rack, table, rules, **options)
    plan = solve(rack, table, rules, **options)
    if options["first_meld"]:
        assert (plan is None) == (expected is None), (plan, expected)
        if plan is None:
            return
    assert plan is not None
    assert (plan.points, plan.tiles) == (expected or (0, 0))
    check_plan(plan, rack, table)
    assert plan.tiles == 0 or len(rack) - plan.tiles >= options["keep"]
    assert solve(rack[::-1], table, rules, **options) == plan  # the rack's order is no input


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(), st.booleans())
def test_solver_equals_brute_force_without_additions(position, first_meld):
    rack, table, rules, options = position
    options = {**options, "first_meld": first_meld, "may_add": False}
    expected = brute_force(rack, table, rules, **options)
    plan = solve(rack, table, rules, **options)
    if plan is None:
        assert first_meld and expected is None
        return
    assert (plan.points, plan.tiles) == (expected or (0, 0))
    assert plan.additions == ()


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(adding=True))
def test_solver_equals_brute_force_when_adding_to_the_table(position):
    rack, table, rules, options = position
    expected = brute_force(rack, table, rules, **options)
    plan = solve(rack, table, rules, **options)
    assert plan is not None
    assert (plan.points, plan.tiles) == expected
    check_plan(plan, rack, table)


# --- 3. plans from random games are accepted by the engine ----------------------------------

GAMES = 36


def random_positions(games: int):
    """Every play-phase position of random four-player games under a few rule presets, some
    with the rack topped up from the wall to 14-20 tiles."""
    presets = [PRESETS["remi"], PRESETS["remi-45"], PRESETS["remi-open-discard"]]
    rng = random.Random(2024)
    for n in range(games):
        rules = presets[n % len(presets)]
        game = play_random_game(rules, 4, f"solver-{n}", random.Random(n), keep_states=True)
        for state in game.states:
            if state.phase != PLAY:
                continue
            yield state
            if rng.random() < 0.3 and state.wall:
                topped = state.copy()
                seat = topped.turn
                want = rng.randint(14, 20)
                while len(topped.racks[seat]) < want and topped.wall:
                    topped.racks[seat].append(topped.wall.pop())
                yield topped


def play_plan(state: State, plan: Plan) -> State:
    seat = state.turn
    for action in plan.actions():
        state, _ = apply(state, seat, action)
    return state


def test_plans_from_random_games_are_accepted_by_the_engine():
    checked = firsts = adds = 0
    for state in random_positions(GAMES):
        seat = state.turn
        rack = state.racks[seat]
        first = state.melded_on[seat] is None
        may_add = state.melded_on[seat] != state.turn_number
        must = [state.pending_tile] if state.pending == USE_DISCARD else []
        table = [m.meld for m in state.melds]
        for objective in ("points", "tiles"):
            plan = solve(
                rack,
                table,
                state.rules,
                first_meld=first,
                may_add=may_add,
                objective=objective,
                must_use=must,
            )
            if plan is None:
                assert first
                continue
            after = play_plan(state, plan)  # raises if the engine refuses any action
            assert len(after.racks[seat]) == len(rack) - plan.tiles >= 1
            gained = sum(m.meld.points for m in after.melds[len(table) :])
            gained += sum(after.melds[i].meld.points - table[i].points for i, _ in plan.additions)
            assert gained == plan.points
            if first:
                firsts += 1
                assert plan.points >= state.rules.first_meld_minimum
                assert after.melded_on[seat] == state.turn_number
                assert not plan.additions
                if must:
                    assert must[0] not in after.racks[seat] or rack.count(must[0]) > 1
            adds += bool(plan.additions)
            if not first and objective == "points":
                assert_no_single_move_beats(plan, rack, table, may_add)
            checked += 1
    assert checked > 2000 and firsts > 20 and adds > 100, (checked, firsts, adds)


def assert_no_single_move_beats(plan: Plan, rack: list[Tile], table: list[Meld], may_add: bool):
    """A cheap independent lower bound: no single new meld or single-tile addition is worth
    more than the whole plan."""
    from games.engine.remi.moves import meld_candidates

    for group in meld_candidates(rack):
        if len(group.tiles) < len(rack):
            value = classify(group.tiles, REMI, group.designations()).points
            assert plan.points >= value, (plan, group)
    if may_add and len(rack) >= 2:
        for target in table:
            for tile in set(rack):
                try:
                    grown = extend(target, [tile])
                except InvalidMeld:
                    continue
                assert plan.points >= grown.points - target.points


def later_turn(rack: list[Tile], table: list[Meld], **options) -> Plan:
    plan = solve(rack, table, REMI, first_meld=False, **options)
    assert plan is not None
    return plan


def test_larger_racks_keep_the_relations_any_optimum_must_keep():
    """Beyond the brute force's reach (14-25 tiles, busy tables), relations between optima:
    more freedom never scores less, and each objective wins on its own measure."""
    rng = random.Random(7)
    checked = 0
    for n in range(12):
        game = play_random_game(REMI, 4, f"solver-large-{n}", random.Random(100 + n), True)
        later = [s for s in game.states if s.phase == PLAY and s.melds]
        for state in rng.sample(later, min(25, len(later))):
            hidden = list(state.wall)
            rng.shuffle(hidden)
            rack = list(state.racks[state.turn])
            while len(rack) < rng.randint(14, 25) and hidden:
                rack.append(hidden.pop())
            table = [m.meld for m in state.melds]
            by_points = later_turn(rack, table)
            by_tiles = later_turn(rack, table, objective="tiles")
            assert by_points.points >= by_tiles.points
            assert by_tiles.tiles >= by_points.tiles
            assert later_turn(rack, table, may_add=False).points <= by_points.points
            assert later_turn(rack, table, keep=2).points <= by_points.points
            if hidden:  # one more tile: every old plan is still possible
                assert later_turn([*rack, hidden[-1]], table).points >= by_points.points
            opening = solve(rack, table, REMI, first_meld=True)
            if opening is not None:
                assert opening.points <= later_turn(rack, table, may_add=False).points
            check_plan(by_points, rack, table)
            check_plan(by_tiles, rack, table)
            checked += 1
    assert checked > 150
