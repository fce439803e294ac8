"""The review's cost: seconds of worker CPU per finished game, by game type (median, p95, max).

Games are played to the end by the game's own bots (random levels, 2-4 seats), then reviewed
as the worker does (``games.engine.core.review.review_game`` with the CPU clock and the
site's time limit per position).  The baseline, measured in the same run on the same games,
is replaying the move log alone (what every review must do anyway); the ratio says what the
planners add.  Also: the slowest single position, and how many turns reached the time limit
and were judged by a best-found play.

    python bench/review.py [--games 30] [--limit-ms 2000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import GAMES, discover_games, register_games
from games.engine.core.review import review_game

register_games(discover_games())  # the engine's own games: no site here to register them


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bot_game(key: str, seed: int) -> tuple:
    engine = GAMES[key]
    rng = random.Random(seed)
    players = rng.randint(engine.min_seats, min(4, engine.max_seats))
    rules = engine.presets[engine.default_preset]
    state = engine.new_game(rules, players, f"bench-{seed}")
    start = engine.ctx(state)
    levels = [rng.choice(engine.bot_levels) for _ in range(players)]
    moves = []
    while engine.to_act(state):
        seat = rng.choice(sorted(engine.to_act(state)))
        action = engine.choose(engine.player_view(state, seat), levels[seat], rng)
        state, _ = engine.apply(state, seat, action)
        moves.append((seat, str(action)))
    return engine, rules, start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per game type")
    parser.add_argument("--limit-ms", type=int, default=2000, help="CPU ms per position")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    clock = time.process_time
    print(f"{args.games} bot games per type, time limit {args.limit_ms} ms per position, CPU s")
    header = (
        f"{'game':<12} {'moves':>6} {'turns':>6} {'median':>8} {'p95':>8} {'max':>8} "
        f"{'replay med':>10} {'ratio':>7} {'worst pos':>9} {'limited':>8}"
    )
    print(header)
    for key, engine in GAMES.items():
        costs, replays, moves_made, turns, worst, limited = [], [], [], [], 0.0, 0
        for n in range(args.games):
            engine, rules, ctx, moves = bot_game(key, args.seed * 100_000 + n)
            started = clock()
            engine.replay(rules, list(ctx.seats), ctx.seed, moves, dealer=ctx.dealer)
            replays.append(clock() - started)
            started = clock()
            review = review_game(
                engine,
                rules,
                list(ctx.seats),
                ctx.seed,
                moves,
                dealer=ctx.dealer,
                clock=clock,
                limit=args.limit_ms / 1000,
            )
            costs.append(clock() - started)
            moves_made.append(len(moves))
            turns.append(len(review.turns))
            worst = max([worst, *(t.seconds for t in review.turns)])
            limited += sum(not t.best.exact for t in review.turns)
        median = statistics.median(costs)
        replay = statistics.median(replays)
        print(
            f"{key:<12} {statistics.median(moves_made):>6.0f} {statistics.median(turns):>6.0f} "
            f"{median:>8.3f} {percentile(costs, 0.95):>8.3f} {max(costs):>8.3f} "
            f"{replay:>10.4f} {median / replay if replay else 0:>7.1f} {worst:>9.3f} {limited:>8}"
        )


if __name__ == "__main__":
    main()
