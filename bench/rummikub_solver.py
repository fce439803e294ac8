"""Rummikub solver speed: ours (games.engine.rummikub.solver) against the rummikub-solver
package (integer programming through cvxpy and HiGHS), on the same seeded positions.

Each position: a table of 9-80 tiles drawn as legal melds (some with a joker) from a
shuffled set, and a rack of 8-20 tiles from what is left.  Both solvers maximise the number
of tiles placed; their counts are compared too (ours may be higher: the package leaves out
melds with a joker that could be dropped, such as a 4-set with a joker).  Milliseconds of
this process's CPU time (so that other work on a shared machine does not count) and
wall-clock time, each against the issue's targets; ``--wall`` returns the wall-clock figures.

    python bench/rummikub_solver.py [--positions 300] [--seed 0] [--wall] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# Run as a script, this file's folder comes first on the path and its name would hide the
# package it measures against.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from games.engine.rummikub.rules import Rules  # noqa: E402
from games.engine.rummikub.solver import solve  # noqa: E402
from games.engine.tiles import COLOURS, JOKER, Tile, full_set  # noqa: E402


def random_position(
    rng: random.Random,
    table_size: tuple[int, int],
    rack_size: tuple[int, int],
    *,
    numbers: Sequence[int] = range(1, 14),
    colours: Sequence[str] = COLOURS,
    joker_chance: float = 0.15,
) -> tuple[list[list[Tile]], list[Tile]]:
    """A table of legal melds (about ``table_size`` tiles, never more than its upper end) and
    a rack, both from one shuffled set restricted to ``numbers`` and ``colours`` (plus the
    two jokers).  A meld gets a joker in place of one of its tiles with ``joker_chance``."""
    pool = [t for t in full_set() if t.is_joker or (t.number in numbers and t.colour in colours)]
    rng.shuffle(pool)
    target = rng.randint(*table_size)
    table: list[list[Tile]] = []
    size = 0
    low, high = min(numbers), max(numbers)
    for _ in range(400):
        if size >= target:
            break
        if rng.random() < 0.5:
            length = rng.randint(3, 5)
            if high - low + 1 < length:
                continue
            start = rng.randint(low, high - length + 1)
            colour = rng.choice(colours)
            meld = [Tile(colour, n) for n in range(start, start + length)]
        else:
            if len(colours) < 3:
                continue
            number = rng.randint(low, high)
            meld = [
                Tile(c, number)
                for c in rng.sample(list(colours), rng.randint(3, min(4, len(colours))))
            ]
        if size + len(meld) > table_size[1]:
            continue
        if JOKER in pool and rng.random() < joker_chance:
            meld[rng.randrange(len(meld))] = JOKER
        left = list(pool)
        try:
            for tile in meld:
                left.remove(tile)
        except ValueError:
            continue
        pool = left
        table.append(meld)
        size += len(meld)
    rack = pool[: rng.randint(*rack_size)]
    return table, rack


def positions(count: int, seed: int) -> list[tuple[list[list[Tile]], list[Tile]]]:
    rng = random.Random(seed)
    return [random_position(rng, (9, 80), (8, 20)) for _ in range(count)]


def package_solver() -> Callable[[list[list[Tile]], list[Tile]], int]:
    """The package's tile-count solve as a function of our tiles: how many it places."""
    from rummikub_solver import RuleSet

    ruleset = RuleSet()
    numbered = ruleset.tiles[:-1]  # 13 per colour, colour after colour; the joker is last
    joker = ruleset.tiles[-1]

    def convert(tile: Tile) -> object:
        if tile.is_joker:
            return joker
        return numbered[COLOURS.index(tile.colour) * 13 + tile.number - 1]

    def count(table: list[list[Tile]], rack: list[Tile]) -> int:
        state = ruleset.new_game()
        state.add_table(*(convert(t) for meld in table for t in meld))
        state.add_rack(*(convert(t) for t in rack))
        state.initial = False
        proposal = ruleset.solve(state)
        return 0 if proposal is None else len(proposal.tiles)

    return count


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name:8} median {statistics.median(values):8.2f}  p99 {percentile(values, 0.99):8.2f}"
        f"  max {max(values):8.2f}"
    )


# The targets for our solver: median at most a tenth of the package's (same run),
# p99 and max in milliseconds.
TARGET_RATIO = 0.1
TARGET_P99 = 50.0
TARGET_MAX = 250.0


def timed(
    solver: Callable[[list[list[Tile]], list[Tile]], int],
    cases: list[tuple[list[list[Tile]], list[Tile]]],
) -> tuple[list[int], list[float], list[float]]:
    """Each position's count, CPU and wall-clock milliseconds.  A full garbage collection
    first: the positions and the package's model are the bench's own objects, and a
    collection they set off would be charged to whichever solver runs next."""
    gc.collect()
    counts: list[int] = []
    cpu: list[float] = []
    wall: list[float] = []
    for table, rack in cases:
        started, started_wall = time.process_time(), time.perf_counter()
        counts.append(solver(table, rack))
        cpu.append((time.process_time() - started) * 1000)
        wall.append((time.perf_counter() - started_wall) * 1000)
    return counts, cpu, wall


def verdict(ours: list[float], ratio: float) -> str:
    checks = [
        (f"ratio {ratio:.3f} <= {TARGET_RATIO}", ratio <= TARGET_RATIO),
        (
            f"p99 {percentile(ours, 0.99):.1f} <= {TARGET_P99:g} ms",
            percentile(ours, 0.99) <= TARGET_P99,
        ),
        (f"max {max(ours):.1f} <= {TARGET_MAX:g} ms", max(ours) <= TARGET_MAX),
    ]
    return "targets: " + "; ".join(f"{text} {'met' if ok else 'MISSED'}" for text, ok in checks)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a handful of positions")
    parser.add_argument("--wall", action="store_true", help="figures returned in wall-clock time")
    args = parser.parse_args(argv)
    count = 5 if args.quick else args.positions
    rules = Rules()
    package = package_solver()
    package(*random_position(random.Random(-1), (9, 20), (8, 10)))  # build its model first

    def ours_count(table: list[list[Tile]], rack: list[Tile]) -> int:
        plan = solve(table, rack, rules)
        return 0 if plan is None else plan.tiles

    # One solver at a time over all positions: the package's backend may keep threads
    # busy after it returns, which would be charged to ours if the two took turns.
    cases = positions(count, args.seed)
    counts, ours_cpu, ours_wall = timed(ours_count, cases)
    placed, theirs_cpu, theirs_wall = timed(package, cases)
    higher = 0
    for (table, rack), mine, theirs in zip(cases, counts, placed, strict=True):
        if mine < theirs:
            raise SystemExit(f"ours placed {mine} < package {theirs}: {table} / {rack}")
        higher += mine > theirs
    print(f"{count} positions (table 9-80 tiles, rack 8-20), milliseconds per solve")
    ratios = {}
    for kind, ours, theirs in (
        ("CPU", ours_cpu, theirs_cpu),
        ("wall-clock", ours_wall, theirs_wall),
    ):
        ratios[kind] = statistics.median(ours) / statistics.median(theirs)
        print(f"{kind}:")
        print(summary("ours", ours))
        print(summary("package", theirs))
        print(f"median ratio ours/package {ratios[kind]:.3f}")
        print(verdict(ours, ratios[kind]))
    print(f"ours placed more in {higher} positions")
    kind = "wall-clock" if args.wall else "CPU"
    ours, theirs = (ours_wall, theirs_wall) if args.wall else (ours_cpu, theirs_cpu)
    return {
        "ours_median": statistics.median(ours),
        "ours_p99": percentile(ours, 0.99),
        "ours_max": max(ours),
        "package_median": statistics.median(theirs),
        "ratio": ratios[kind],
    }


if __name__ == "__main__":
    main()
