"""Exact set partitioning with HiGHS: choose candidate groups (tables, byes) so that every
player is in exactly one and each kind of group is used a given number of times, at the least
total cost. The one module that talks to the solver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import highspy
import numpy as np

_INTEGRAL = 1e-6
_FEASIBLE = 2  # HiGHS's primal_solution_status of a feasible point


class NoPartition(ValueError):
    """The candidates cannot cover every member exactly once with the counts asked for."""


@dataclass(frozen=True)
class Candidates:
    """Candidate groups of one kind: ``members`` is an integer array, one row per group
    (each row a group's member indices), ``costs`` one cost per row."""

    kind: int
    members: np.ndarray
    costs: np.ndarray


def cheapest_partition(
    members: int,
    blocks: Sequence[Candidates],
    counts: Mapping[int, int],
    *,
    tolerance: float = 0.0,
    seconds: float | None = None,
) -> list[tuple[int, int]]:
    """The chosen groups as ``(block index, row index)`` pairs: every member ``0..members-1``
    in exactly one chosen group and exactly ``counts[kind]`` groups of each kind.

    Solved to proven optimality: the total cost is within ``tolerance`` of the least (an
    absolute gap; zero by default), so with costs built in tiers a tolerance below the
    smallest step of a tier leaves only the tiers under it approximate.
    The linear relaxation is solved first: for seatings down sorted standings it is usually
    integral already, and an integral optimum of the relaxation is an optimum of the integer
    problem, found in a fraction of the time branch and bound needs to get going.

    With ``seconds``, a search that runs out of time returns the best partition found so far
    (not proven the cheapest), or raises ``NoPartition`` when it found none.
    """
    kind_row = {kind: members + i for i, kind in enumerate(sorted(counts))}
    index_parts, start_parts, cost_parts = [], [], []
    offset = 0
    for block in blocks:
        rows, width = block.members.shape
        with_kind = np.hstack([block.members, np.full((rows, 1), kind_row[block.kind])])
        index_parts.append(np.sort(with_kind, axis=1).ravel())
        start_parts.append(offset + np.arange(rows) * (width + 1))
        cost_parts.append(block.costs)
        offset += rows * (width + 1)
    columns = sum(len(c) for c in cost_parts)
    bounds = np.array([1.0] * members + [float(counts[k]) for k in sorted(counts)])

    lp = highspy.HighsLp()
    lp.num_col_ = columns
    lp.num_row_ = len(bounds)
    lp.col_cost_ = np.concatenate(cost_parts).astype(float)
    lp.col_lower_ = np.zeros(columns)
    lp.col_upper_ = np.ones(columns)
    lp.row_lower_ = bounds
    lp.row_upper_ = bounds
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.append(np.concatenate(start_parts), offset).astype(np.int32)
    lp.a_matrix_.index_ = np.concatenate(index_parts).astype(np.int32)
    lp.a_matrix_.value_ = np.ones(offset)

    # highspy ships types, but Highs.__init__ itself is unannotated.
    solver = highspy.Highs()  # type: ignore[no-untyped-call]
    solver.setOptionValue("output_flag", False)
    # One thread: pairing runs beside the site's other work, and the problems are small.
    solver.setOptionValue("threads", 1)
    # Presolve costs more than it saves on problems this size (measured: twice as fast off).
    solver.setOptionValue("presolve", "off")
    solver.setOptionValue("mip_rel_gap", 0.0)
    solver.setOptionValue("mip_abs_gap", tolerance)
    if seconds is not None:
        solver.setOptionValue("time_limit", float(seconds))
    solver.passModel(lp)
    values = _run(solver)
    if np.any((values > _INTEGRAL) & (values < 1 - _INTEGRAL)):
        solver.changeColsIntegrality(
            columns,
            np.arange(columns, dtype=np.int32),
            np.full(columns, highspy.HighsVarType.kInteger),
        )
        values = _run(solver)
    chosen = np.flatnonzero(values > 0.5)
    ends = np.cumsum([len(c) for c in cost_parts])
    picked: list[tuple[int, int]] = []
    for column in chosen:
        b = int(np.searchsorted(ends, column, side="right"))
        picked.append((b, int(column - (ends[b - 1] if b else 0))))
    return picked


def _run(solver: highspy.Highs) -> np.ndarray:
    solver.run()
    status = solver.getModelStatus()
    out_of_time = status == highspy.HighsModelStatus.kTimeLimit
    if status != highspy.HighsModelStatus.kOptimal and not (
        out_of_time and solver.getInfo().primal_solution_status == _FEASIBLE
    ):
        raise NoPartition(solver.modelStatusToString(status))
    return np.asarray(solver.getSolution().col_value)
