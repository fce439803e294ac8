"""Engine speed: microseconds per ``apply`` (median, p99) and complete random games per second.

python bench/engine.py [--games 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.remi import REMI, apply, new_game
from games.engine.remi.randomplay import play_random_game


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    played = []
    started = time.perf_counter()
    for n in range(args.games):
        played.append(play_random_game(REMI, args.players, f"bench-{n}", random.Random(n)))
    elapsed = time.perf_counter() - started

    timings = []
    for game in played:
        state = new_game(REMI, args.players, game.start.seed)
        for seat, action in game.actions:
            t0 = time.perf_counter()
            state, _ = apply(state, seat, action)
            timings.append((time.perf_counter() - t0) * 1e6)

    actions = len(timings)
    print(f"games: {args.games} random {args.players}-player games, {actions} actions")
    print(
        f"apply: median {statistics.median(timings):.1f} us, p99 {percentile(timings, 0.99):.1f} us"
    )
    print(f"random play (choosing moves + apply): {args.games / elapsed:.1f} complete games/s")
    print(f"replay only: {len(played) / (sum(timings) / 1e6):.1f} complete games/s")


if __name__ == "__main__":
    main()
