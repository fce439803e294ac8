"""Swiss pairing time at tables of 4 for 64, 256 and 1,024 players.

Each field plays ``--rounds`` rounds with random finishing orders; every round's pairing is
timed (wall clock and this process's CPU time, milliseconds; median and max over rounds
and repeats; on a shared machine the CPU figures are the fairer ones) beside a naive
baseline measured in the same run: the standings cut into consecutive slices of four, which
ignores earlier meetings. The repeats column counts repeated pairs (ours / the slices').
Target: under 2 s for 1,024 players.

    python bench/pairing.py [--rounds 7] [--repeats 2] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.formats.swiss import repeats, swiss_round
from tournaments.formats.tables import Round

FIELDS = (64, 256, 1024)
SEATS = 4
TARGET_SECONDS = 2.0


def sliced(players: list[int], scores: Counter) -> Round:
    order = sorted(players, key=lambda p: -scores[p])
    return Round(tuple(tuple(order[i : i + SEATS]) for i in range(0, len(order), SEATS)))


def run(
    size: int, rounds: int, seed: int
) -> tuple[list[float], list[float], list[float], int, int]:
    rng = random.Random(seed)
    players = list(range(size))
    scores: Counter = Counter()
    history: list[Round] = []
    ours, naive, used, ours_repeats, naive_repeats = [], [], [], 0, 0
    for _ in range(rounds):
        start = time.perf_counter()
        baseline = sliced(players, scores)
        naive.append((time.perf_counter() - start) * 1000)
        naive_repeats += repeats(baseline, history)
        start, cpu = time.perf_counter(), time.process_time()
        round_ = swiss_round(players, scores, history, SEATS)
        ours.append((time.perf_counter() - start) * 1000)
        used.append((time.process_time() - cpu) * 1000)
        ours_repeats += repeats(round_, history)
        history.append(round_)
        for table in round_.tables:
            order = list(table)
            rng.shuffle(order)
            for place, player in enumerate(order):
                scores[player] += 2 * (len(order) - 1 - place)
    return ours, naive, used, ours_repeats, naive_repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"Swiss pairing at tables of {SEATS}, {args.rounds} rounds x {args.repeats} runs")
    print(
        f"{'players':>8} {'median ms':>10} {'max ms':>8} {'cpu med':>8} {'cpu max':>8} "
        f"{'slices ms':>10} {'ratio':>8} repeats"
    )
    worst = 0.0
    for size in FIELDS:
        ours, naive, cpu, ours_rep, naive_rep = [], [], [], 0, 0
        for n in range(args.repeats):
            o, v, c, r, s = run(size, args.rounds, args.seed + n)
            ours += o
            naive += v
            cpu += c
            ours_rep += r
            naive_rep += s
        median, slices = statistics.median(ours), statistics.median(naive)
        print(
            f"{size:>8} {median:>10.1f} {max(ours):>8.1f} {statistics.median(cpu):>8.1f} "
            f"{max(cpu):>8.1f} {slices:>10.3f} "
            f"{median / slices:>7.0f}x {ours_rep} / {naive_rep}"
        )
        if size == FIELDS[-1]:
            worst = max(ours) / 1000
    verdict = "ok" if worst < TARGET_SECONDS else "OVER"
    print(f"1,024 players: slowest round {worst:.2f} s, target {TARGET_SECONDS} s: {verdict}")


if __name__ == "__main__":
    main()
