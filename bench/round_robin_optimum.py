"""The best round robin schedules possible at tables of 3 and 4, proven by an exact model,
to hold the search in ``tournaments/formats/round_robin.py`` against.

For each field (``--players``, default 4-12) it finds, with HiGHS, the fewest rounds in
which every pair can meet, then the narrowest window ``[low, low + width]`` of meeting
counts a schedule of that many rounds can have, and prints both beside what the search
gives.  "proven" means HiGHS showed every narrower window (or fewer rounds) infeasible;
"open" that it ran out of ``--seconds`` first.  The model: one binary per (round, table
of players) and per (round, bye); each player once a round; each pair's count in the
window; byes per player the floor or ceiling of their share.  Round 1 is fixed (players
in order), which loses nothing: any schedule can be renumbered so.

    python bench/round_robin_optimum.py [--seats 3 4] [--players 4 12] [--seconds 60]
"""

from __future__ import annotations

import argparse
import math
import sys
from itertools import combinations
from math import comb
from pathlib import Path

import highspy
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.formats.round_robin import minimum_rounds, round_robin
from tournaments.formats.tables import meetings, table_sizes


def feasible(n: int, seats: int, rounds: int, low: int, high: int, seconds: float) -> bool | None:
    """Whether some schedule has every pair's count in [low, high]; None: undecided."""
    sizes, byes = table_sizes(n, seats)
    size = sizes[0]
    pairs = {pair: i for i, pair in enumerate(combinations(range(n), 2))}
    first = [tuple(range(t * size, (t + 1) * size)) for t in range(len(sizes))]
    sat_out = set(range(len(sizes) * size, n))
    base = np.zeros(len(pairs))
    for table in first:
        for pair in combinations(table, 2):
            base[pairs[pair]] += 1
    columns = []  # the rows each column (a table or a bye in a round) counts in
    pair_row, bye_row = (rounds - 1) * n, (rounds - 1) * n + len(pairs)
    for r in range(rounds - 1):
        for table in combinations(range(n), size):
            rows = [r * n + p for p in table]
            columns.append(rows + [pair_row + pairs[pair] for pair in combinations(table, 2)])
        if byes:
            columns.extend([r * n + p, bye_row + p] for p in range(n))
    lower = [1.0] * pair_row + [low - base[i] for i in range(len(pairs))]
    upper = [1.0] * pair_row + [high - base[i] for i in range(len(pairs))]
    if byes:
        fewest, most = rounds * byes // n, -(-rounds * byes // n)
        for p in range(n):
            lower.append(fewest - (p in sat_out))
            upper.append(most - (p in sat_out))
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(columns), len(lower)
    lp.col_cost_ = np.zeros(len(columns))
    lp.col_lower_, lp.col_upper_ = np.zeros(len(columns)), np.ones(len(columns))
    lp.row_lower_, lp.row_upper_ = np.array(lower), np.array(upper)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.cumsum([0] + [len(c) for c in columns]).astype(np.int32)
    lp.a_matrix_.index_ = np.array([i for c in columns for i in c], dtype=np.int32)
    lp.a_matrix_.value_ = np.ones(sum(len(c) for c in columns))
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(columns)
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("threads", 1)
    solver.setOptionValue("time_limit", float(seconds))
    solver.passModel(lp)
    solver.run()
    status = solver.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return True
    if status == highspy.HighsModelStatus.kInfeasible:
        return False
    return None


def best(n: int, seats: int, seconds: float) -> str:
    rounds, sure = minimum_rounds(n, seats), True
    while (answer := feasible(n, seats, rounds, 1, rounds, seconds)) is not True:
        sure = sure and answer is False
        rounds += 1
    sizes, _ = table_sizes(n, seats)
    mean = rounds * sum(comb(s, 2) for s in sizes) / comb(n, 2)
    proven = True
    for width in range(rounds):
        ends = range(max(1, math.ceil(mean) - width), math.floor(mean) + 1)
        answers = [feasible(n, seats, rounds, e, e + width, seconds) for e in ends]
        if True in answers:
            return (
                f"{rounds} rounds{'' if sure else ' (fewer open)'}, "
                f"spread {width}{'' if proven else ' (narrower open)'}"
            )
        proven = proven and None not in answers
    return f"{rounds} rounds, spread ?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--players", type=int, nargs=2, default=[4, 12])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'seats':>5} {'players':>7}  {'search':<22} exact (HiGHS)")
    for seats in args.seats:
        for n in range(max(args.players[0], seats + 1), args.players[1] + 1):
            schedule = round_robin(list(range(n)), seats)
            counts = [meetings(schedule)[frozenset(p)] for p in combinations(range(n), 2)]
            ours = f"{len(schedule)} rounds, spread {max(counts) - min(counts)}"
            print(f"{seats:>5} {n:>7}  {ours:<22} {best(n, seats, args.seconds)}", flush=True)


if __name__ == "__main__":
    main()
