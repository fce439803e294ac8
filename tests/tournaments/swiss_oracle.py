"""Shared by the Swiss tests and ``bench/swiss_repeats.py``: random results, and an exact
search for a seating with fewer repeats than the pairing found.

The search is an integer program (HiGHS), built here from the rules, not from the
pairing's code: one column per possible table (and per possible bye, as fair as the
pairing's rule: nobody a second before everyone has one), every player covered once, and the
constraint "fewer repeats than the pairing's". Feasible means the repeat was avoidable;
infeasible proves it was not; a time limit may leave a round undecided. (A model of players
assigned to numbered tables was tried first: it could not decide late rounds of 21-30
players in 20 seconds.)
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import highspy
import numpy as np

from tournaments.formats.tables import Round, bye_counts, meetings, table_sizes


def play(round_: Round, scores: Counter, rng: random.Random) -> None:
    """Random finishing orders; two points per player beaten."""
    for table in round_.tables:
        order = list(table)
        rng.shuffle(order)
        for place, player in enumerate(order):
            scores[player] += 2 * (len(order) - 1 - place)


def fewer_repeats(
    players: list[int], history: list[Round], seats: int, found: int, seconds: float
) -> int | bool | None:
    """The repeats of a fair seating with fewer than ``found``; False when none exists; None
    when the search ran out of time."""
    sizes, byes = table_sizes(len(players), seats)
    had = bye_counts(history)
    met = meetings(history)
    level = sorted(had[p] for p in players)[byes - 1] if byes else None
    must = {p for p in players if byes and had[p] < level}
    may = [p for p in players if byes and had[p] == level]
    row = {p: i for i, p in enumerate(players)}
    size_row = {size: len(players) + i for i, size in enumerate(sorted(set(sizes)))}
    bye_row = len(players) + len(size_row)
    total_row = bye_row + 1
    lower = [1.0] * len(players) + [float(sizes.count(s)) for s in sorted(size_row)]
    upper = list(lower)
    lower += [float(byes), 0.0]
    upper += [float(byes), float(found - 1)]

    costs: list[float] = []
    starts: list[int] = []
    indices: list[int] = []
    values: list[float] = []

    def column(members: tuple[int, ...], kind_row: int, repeats: int) -> None:
        starts.append(len(indices))
        costs.append(float(repeats))
        for p in members:
            indices.append(row[p])
            values.append(1.0)
        indices.extend([kind_row, total_row])
        values.extend([1.0, float(repeats)])

    for p in must:
        column((p,), bye_row, 0)
    for p in may:
        column((p,), bye_row, 0)
    seated = [p for p in players if p not in must]
    for size in sorted(size_row):
        for table in combinations(seated, size):
            repeats = sum(met[frozenset(pair)] > 0 for pair in combinations(table, 2))
            if repeats < found:  # a table with as many cannot be part of a better seating
                column(table, size_row[size], repeats)

    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("threads", 1)
    solver.setOptionValue("time_limit", seconds)
    solver.addRows(len(lower), np.array(lower), np.array(upper), 0, [], [], [])
    count = len(costs)
    solver.addCols(
        count,
        np.array(costs),
        np.zeros(count),
        np.ones(count),
        len(indices),
        np.array(starts, dtype=np.int32),
        np.array(indices, dtype=np.int32),
        np.array(values),
    )
    must_columns = np.arange(len(must), dtype=np.int32)
    solver.changeColsBounds(len(must), must_columns, np.ones(len(must)), np.ones(len(must)))
    solver.changeColsIntegrality(
        count, np.arange(count, dtype=np.int32), np.full(count, highspy.HighsVarType.kInteger)
    )
    solver.run()
    status = solver.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return False
    if status == highspy.HighsModelStatus.kOptimal:
        return round(solver.getInfo().objective_function_value)
    return None
