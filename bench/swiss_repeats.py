"""Does the Swiss pairing repeat a meeting it could have avoided?  Fields of 11-40 players
(the brute force in tests/tournaments/test_swiss.py stops at 10), random results, and every
round that repeats a meeting checked by an exact search of its own.

The search (``tests/tournaments/swiss_oracle.py``, shared with the tests) is an integer
program over a model of its own; a round it cannot decide in ``--seconds`` is reported as
undecided.

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tournaments.swiss_oracle import fewer_repeats, play
from tournaments.formats.swiss import repeats, swiss_round
from tournaments.formats.tables import Round


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
