"""Does the Swiss pairing repeat a meeting it could have avoided?  Fields of 11-40 players
(the brute force in tests/tournaments/test_swiss.py stops at 10), random results, and every
round that repeats a meeting checked by an exact search of its own.

The search is an integer program (HiGHS) over a different model from the pairing's set
partitioning: each player to a table or a bye (byes as fair as the pairing's rule: nobody a
second before everyone has one), a repeat counted per earlier-met pair seated together, and
the constraint "fewer repeats than the pairing's".  Feasible means the repeat was avoidable;
infeasible proves it was not; a time limit may leave a round undecided, reported as such.

Printed: rounds paired, rounds with a repeat, and of those how many were avoidable (each
listed: seats, players, round, the pairing's repeats, the fewest the search found),
unavoidable or undecided.

    python bench/swiss_repeats.py [--cases 150] [--seed 7] [--seconds 30]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

import highspy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.formats.swiss import repeats, swiss_round
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
    level = sorted(had[p] for p in players)[byes - 1] if byes else None
    met_pairs = [tuple(sorted(pair)) for pair, count in meetings(history).items() if count]
    tables = range(len(sizes))
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("threads", 1)
    solver.setOptionValue("time_limit", seconds)
    seat = {(p, k): solver.addBinary() for p in players for k in tables}
    bye = {}
    for p in players:
        if byes and had[p] < level:
            bye[p] = solver.addVariable(lb=1, ub=1)
        elif byes and had[p] == level:
            bye[p] = solver.addBinary()
        else:
            bye[p] = solver.addVariable(lb=0, ub=0)
    together = [(a, b, k, solver.addVariable(lb=0, ub=1)) for a, b in met_pairs for k in tables]
    for p in players:
        solver.addConstr(sum(seat[p, k] for k in tables) + bye[p] == 1)
    for k, size in enumerate(sizes):
        solver.addConstr(sum(seat[p, k] for p in players) == size)
    if byes:
        solver.addConstr(sum(bye.values()) == byes)
    for a, b, k, pair_together in together:
        solver.addConstr(seat[a, k] + seat[b, k] - pair_together <= 1)
    total = sum(t for *_, t in together)
    solver.addConstr(total <= found - 1)
    solver.minimize(total)
    status = solver.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return False
    if status == highspy.HighsModelStatus.kOptimal:
        return round(solver.getInfo().objective_function_value)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=150, help="random tournaments")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=30.0, help="search time per round")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    paired = repeated = unavoidable = undecided = 0
    avoidable: list[str] = []
    for case in range(args.cases):
        seats, size, rounds = rng.randint(2, 4), rng.randint(11, 40), rng.randint(2, 7)
        results = random.Random(case)
        scores: Counter = Counter()
        history: list[Round] = []
        players = list(range(size))
        for number in range(1, rounds + 1):
            round_ = swiss_round(players, scores, history, seats)
            paired += 1
            found = repeats(round_, history)
            if found:
                repeated += 1
                better = fewer_repeats(players, history, seats, found, args.seconds)
                if better is False:
                    unavoidable += 1
                elif better is None:
                    undecided += 1
                else:
                    avoidable.append(
                        f"  tables of {seats}, {size} players, round {number} (case {case}): "
                        f"{found} repeats, {better} possible"
                    )
            history.append(round_)
            play(round_, scores, results)
    print(f"rounds paired: {paired}; with a repeat: {repeated}")
    print(f"  avoidable: {len(avoidable)}, unavoidable: {unavoidable}, undecided: {undecided}")
    print("\n".join(avoidable))


if __name__ == "__main__":
    main()
