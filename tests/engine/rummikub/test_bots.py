"""Bots from the seat's view: what each level plays in concrete positions."""

from __future__ import annotations

import random

import pytest

from games.engine.rummikub import (
    GAME,
    LEVELS,
    PRESETS,
    Draw,
    Play,
    apply,
    choose,
    judge,
    player_view,
)
from games.engine.rummikub.scenario import position
from games.engine.tiles import parse_tile

from .helpers import bag, rack, table


def bot_move(state, level, seed=0):
    action = choose(player_view(state, state.turn), level, random.Random(seed))
    new, events = apply(state, state.turn, action)
    assert all(e.code != "penalty" for e in events), (level, str(action))
    return action, new


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_first_melds_worth_thirty(level):
    state = position(racks=["R10 R11 R12 Y1 K4", "B1"], table=["K1 K2 K3"], stock="Y2")
    action, new = bot_move(state, level)
    assert isinstance(action, Play)
    assert table(new) == ["K1 K2 K3", "R10 R11 R12"]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_draws_when_its_melds_fall_short(level):
    state = position(racks=["R1 R2 R3 Y9", "B1"], stock="Y2")
    action, _ = bot_move(state, level)
    assert action == Draw()


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_greedy_levels_lay_off_every_tile_they_can(level):
    state = position(
        racks=["R8 K4 Y7 B13", "B1"],
        table=["R5 R6 R7", "K1 K2 K3", "Y9 B9 K9"],
        stock="Y2",
        melded=[0],
    )
    _, new = bot_move(state, level)
    assert rack(new, 0) == bag("Y7 B13")
    # The order of melds on the table is no rule: the solver may list them differently.
    assert {"R5 R6 R7 R8", "K1 K2 K3 K4", "Y9 B9 K9"} == set(table(new))


def test_hard_rearranges_the_table_where_greedy_cannot():
    # B5 only fits by splitting B3-B7 into B3 B4 B5 and B5 B6 B7.
    state = position(racks=["B5 K13", "B1"], table=["B3 B4 B5 B6 B7"], stock="Y2", melded=[0])
    action, _ = bot_move(state, "normal")
    assert action == Draw()
    _, new = bot_move(state, "hard")
    assert sorted(table(new)) == ["B3 B4 B5", "B5 B6 B7"]


def test_bots_leave_table_jokers_where_they_are_under_strict_rules():
    state = position(
        racks=["R8 K12 K13 Y2", "B1"],
        table=["R5 J=R6 R7", "K9 K10 K11"],
        stock="Y3",
        melded=[0],
        rules=PRESETS["tiles-50"],
    )
    for level in LEVELS:
        _, new = bot_move(state, level)
        assert "R5 J=R6 R7" in " | ".join(table(new))


def test_a_bot_plays_whole_games_without_a_penalty():
    for seed, preset in enumerate(("rrrummy", "tiles-50", "rummikub")):
        state = GAME.new_game(PRESETS[preset], 3, f"bots-{seed}")
        rng = random.Random(seed)
        while not state.over:
            level = LEVELS[state.turn]
            action = choose(player_view(state, state.turn), level, rng)
            state, events = apply(state, state.turn, action)
            assert all(e.code != "penalty" for e in events)


class FakeSolver:
    """Stands in for games.engine.rummikub.solver (written in parallel): returns a fixed
    plan and records how it was asked."""

    def __init__(self, plan):
        self.plan = plan
        self.calls = []

    def solve(self, table, rack, rules, objective="tiles", *, initial=False, pinned=None):
        self.calls.append(([list(m) for m in table], list(rack), objective, initial, pinned))
        return self.plan


def solver_plan(*melds: str):
    from types import SimpleNamespace

    from games.engine.rummikub import parse_tiles

    groups = [m.split() for m in melds]
    tiles = [tuple(parse_tiles([w.split("=")[0] for w in g])) for g in groups]
    readings = [tuple(parse_tiles([w.split("=")[1] for w in g if "=" in w])) for g in groups]
    return SimpleNamespace(melds=tiles, jokers_as=readings, placed=(object(),))


def as_play(plan):
    from games.engine.rummikub import Group

    return Play(tuple(Group(t, r) for t, r in zip(plan.melds, plan.jokers_as, strict=True)))


def with_solver(monkeypatch, fake):
    import sys

    import games.engine.rummikub as package

    monkeypatch.setitem(sys.modules, "games.engine.rummikub.solver", fake)
    monkeypatch.setattr(package, "solver", fake, raising=False)


def test_hard_plays_the_exact_solvers_plan_when_it_is_installed(monkeypatch):
    state = position(
        racks=["B5 K13", "B1"], table=["B3 B4 B5 B6 B7", "R3 J=R4 R5"], stock="Y2", melded=[0]
    )
    fake = FakeSolver(solver_plan("B3 B4 B5", "B5 B6 B7", "R3 J=R4 R5"))
    with_solver(monkeypatch, fake)
    _, new = bot_move(state, "hard")
    assert table(new) == ["B3 B4 B5", "B5 B6 B7", "R3 J=R4 R5"]
    (call,) = fake.calls
    assert call[2:] == ("tiles", False, [[parse_tile("R4")]])


def test_hard_falls_back_to_its_own_search_when_the_solvers_plan_breaks_a_rule(monkeypatch):
    # The plan takes R5 R6 from the locked meld R2 R3 J R5 R6 (the solver knows no locks).
    state = position(
        racks=["R7 K13", "B1"],
        table=["R2 R3 J=R4 R5 R6"],
        stock="Y2",
        melded=[0],
        rules=PRESETS["rrrummy"],
    )
    with_solver(monkeypatch, FakeSolver(solver_plan("R2 R3 J=R4 R5 R6 R7")))
    _, new = bot_move(state, "hard")
    assert table(new) == ["R2 R3 J=R4 R5 R6 R7"]
    plan = solver_plan("R2 R3 J=R4", "R5 R6 R7")
    assert not judge(state.table, state.racks[0], True, as_play(plan), state.rules).ok
    with_solver(monkeypatch, FakeSolver(plan))
    _, new = bot_move(state, "hard")
    assert table(new) == ["R2 R3 J=R4 R5 R6 R7"]  # its own search: the greedy lay-off
