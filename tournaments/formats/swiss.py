"""Swiss pairing for tables of 2-4: players of similar standing share a table, nobody meets
an earlier opponent again where that can be avoided, and byes go round fairly.

**The optimisation.** A round is a set partitioning problem solved exactly by HiGHS
(``partition.cheapest_partition``): every candidate table (a group of players of an allowed
size) and every possible bye has a cost, and the cheapest choice that seats everyone once is
taken. A table costs, in strict order of importance (each weight exceeds the largest total
the terms below it can reach in a round):

1. the number of its pairs of players who have shared a table before;
2. its score spread: the sum of the score differences of its pairs;
3. its standing spread: the sum of the distances in the standings of its pairs.

A bye costs the standing of its player counted from the bottom (term 3's units), so among the
players it may go to, it goes to the lowest placed, as in chess Swiss systems.

**Byes** go first to whoever has had the fewest: with ``b`` byes to give, the ``b`` smallest
bye counts set a level ``L``; players below ``L`` must sit out, players above may not, players
at ``L`` may. So no player gets a second bye while another has none, and the counts never
differ by more than one.

**Big fields.** While the candidate tables number at most ``EXACT_COLUMNS`` (up to 20
players at tables of 4, 32 at tables of 3, 100 at tables of 2), the whole field is one exact
solve. Beyond that the byes are fixed first (the lowest placed of those who may have one) and
the rest is paired down the standings:

- Without repeats, terms 2 and 3 are smallest for consecutive groups of the standings: for
  each gap between two neighbours in the standings, any seating puts at least as many table
  pairs across it as consecutive groups do. So when the next ``size`` players have never met
  each other, they are seated together as they stand, and that is the exact optimum.
- Otherwise a window of the next ``WINDOW_TABLES`` tables' worth of players is solved exactly;
  its tables but the worst placed are kept, and that one's players float back down to join
  the next window. A window whose best seating still repeats a meeting is solved again with
  one table more, up to ``MAX_WINDOW_TABLES``, before the repeat is accepted.

A window with as few seatings as ``MAX_ENUMERATED`` (12 players at tables of 4, the usual
window) is priced seating by seating, which is exact and takes well under a millisecond;
only the wider windows go to the solver. Each step is small, so the time grows linearly with
the field (``bench/pairing.py``). Across
windows the result is not proven optimal: a repeat can remain that a seating reaching further
than ``MAX_WINDOW_TABLES`` tables could have avoided (the tests pin exactness on the
whole-field sizes against a brute force).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations, pairwise
from math import comb, factorial

import numpy as np

from .partition import Candidates, cheapest_partition
from .tables import Player, Round, Table, bye_counts, meetings, table_sizes

EXACT_COLUMNS = 5_000
WINDOW_TABLES = 3
MAX_WINDOW_TABLES = 5

_BYE = 0  # the kind of a bye group for the partition; tables' kinds are their sizes


def swiss_round(
    players: Sequence[Player],
    scores: Mapping[Player, float],
    history: Sequence[Round],
    seats: int,
    *,
    min_table: int | None = None,
) -> Round:
    """The next round of a Swiss for ``players`` at tables of ``seats`` (2-4).

    ``scores`` are the players' match points so far (missing means 0); the better score is
    the better standing, and ``players``' order breaks ties (in round one: the seeding).
    ``history`` is every earlier round (tables and byes). ``min_table`` (2..seats, default
    ``seats``) allows smaller tables instead of byes, as ``table_sizes`` explains.

    The tables come best placed first, each listing its players in standings order; the
    byes come in standings order.
    """
    order = sorted(players, key=lambda p: -scores.get(p, 0))
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    sizes, byes = table_sizes(len(order), seats, min_table)
    must, may = bye_candidates(order, bye_counts(history), byes)
    pairing = _Pairing(order, scores, meetings(history))
    if sum(comb(len(order) - len(must), size) for size in set(sizes)) <= EXACT_COLUMNS:
        tables, sitting_out = pairing.solve(order, sizes, byes, must, may)
    else:
        rest = byes - len(must)
        sitting_out = [*must, *may[len(may) - rest :]] if rest else list(must)
        out = set(sitting_out)
        tables = pairing.down_the_standings([p for p in order if p not in out], sizes)
    rank = pairing.rank
    seated = sorted((tuple(sorted(t, key=rank.__getitem__)) for t in tables), key=pairing.best)
    return Round(tables=tuple(seated), byes=tuple(sorted(sitting_out, key=rank.__getitem__)))


def bye_candidates(
    order: Sequence[Player], had: Mapping[Player, int], byes: int
) -> tuple[list[Player], list[Player]]:
    """Who must sit out and who may, in ``order``, for ``byes`` byes when each player has
    had ``had[player]`` (see the module docstring)."""
    if byes == 0:
        return [], []
    level = sorted(had.get(p, 0) for p in order)[byes - 1]
    must = [p for p in order if had.get(p, 0) < level]
    may = [p for p in order if had.get(p, 0) == level]
    return must, may


def repeats(round_: Round, history: Sequence[Round]) -> int:
    """How many pairs at the round's tables have shared a table before."""
    met = meetings(history)
    return sum(met[pair] > 0 for pair in meetings([round_]))


@cache
def _combinations(players: int, size: int) -> np.ndarray:
    """Every ``size``-subset of ``range(players)``, one sorted row each."""
    return np.array(list(combinations(range(players), size)), dtype=np.int64).reshape(-1, size)


# Seatings priced one by one (``_partitions``) up to this many; beyond, the solver.
MAX_ENUMERATED = 20_000


@cache
def _partitions(players: int, size: int) -> np.ndarray | None:
    """Every way to seat ``range(players)`` at tables of ``size`` (the tables unordered):
    one row per seating, each table given as its row in ``_combinations(players, size)``.
    None when there are more than ``MAX_ENUMERATED`` (or the players do not fill tables)."""
    if players % size:
        return None
    tables = players // size
    count = factorial(players) // (factorial(size) ** tables * factorial(tables))
    if count > MAX_ENUMERATED:
        return None
    row = {subset: i for i, subset in enumerate(combinations(range(players), size))}
    seatings: list[list[int]] = []

    def extend(rest: tuple[int, ...], chosen: list[int]) -> None:
        if not rest:
            seatings.append(list(chosen))
            return
        # The first player left sits at the next table: no seating is counted twice.
        first, others = rest[0], rest[1:]
        for mates in combinations(others, size - 1):
            table = (first, *mates)
            left = tuple(p for p in others if p not in mates)
            extend(left, [*chosen, row[table]])

    extend(tuple(range(players)), [])
    return np.array(seatings, dtype=np.int64).reshape(-1, tables)


class _Pairing:
    """One round's standings and meetings: the costs of candidate tables and the solves."""

    def __init__(self, order: Sequence[Player], scores: Mapping[Player, float], met: Counter):
        self.rank = {p: i for i, p in enumerate(order)}
        self.score = {p: scores.get(p, 0) for p in order}
        self.met = {pair for pair, times in met.items() if times}
        n = len(order)
        # Term 3 of a whole round (pairwise standing gaps of the tables, at most 3n^2, plus
        # the byes' n^2) stays below 4n^2, so the smallest step of the score spread is made
        # worth more than that: 1 for whole points (every default), else the least gap.
        values = sorted(set(self.score.values()))
        if all(float(v).is_integer() for v in values):
            self.unit = 1.0
        else:
            self.unit = min((b - a for a, b in pairwise(values)), default=1.0)
        self.spread_weight = (4 * n * n + 1) / self.unit

    def best(self, table: Table) -> int:
        return min(self.rank[p] for p in table)

    def repeated(self, table: Sequence[Player]) -> int:
        return sum(frozenset(pair) in self.met for pair in combinations(table, 2))

    def solve(
        self,
        group: Sequence[Player],
        sizes: Sequence[int],
        byes: int,
        must: Sequence[Player] = (),
        may: Sequence[Player] = (),
    ) -> tuple[list[Table], list[Player]]:
        """The cheapest seating of ``group`` (in standings order) at tables of ``sizes`` with
        ``byes`` byes (``must`` sit out, ``may`` may): (tables, byes)."""
        out = set(must)
        playing = np.array([i for i, p in enumerate(group) if p not in out], dtype=np.int64)
        # Pairwise terms once per pair of the group, then summed over every candidate table
        # at once.
        repeat = np.zeros((len(group), len(group)))
        spread = np.zeros((len(group), len(group)))
        for i, j in combinations(range(len(group)), 2):
            a, b = group[i], group[j]
            repeat[i, j] = frozenset((a, b)) in self.met
            spread[i, j] = abs(self.score[a] - self.score[b]) * self.spread_weight
        rank = np.array([self.rank[p] for p in group])
        tables = []
        for size in sorted(set(sizes), reverse=True):
            seats = playing[_combinations(len(playing), size)]
            first, second = np.array(list(combinations(range(size), 2))).T
            a, b = seats[:, first], seats[:, second]
            # Rows are in standings order, so each pair's standing gap is b minus a.
            costs = spread[a, b].sum(axis=1) + (rank[b] - rank[a]).sum(axis=1)
            tables.append((size, seats, repeat[a, b].sum(axis=1), costs))
        may_out = set(may)
        takers = np.array([i for i, p in enumerate(group) if p in out or p in may_out])
        bottom = len(self.rank) - 1
        bye_costs = (bottom - rank[takers]) if byes else np.zeros(0)
        # A repeat outweighs every spread a whole round of these groups can add up to.
        worst = max(float(costs.max()) for *_, costs in tables)
        repeat_weight = 1 + (len(sizes) + byes) * max(worst, float(bottom))
        if not byes and len(tables) == 1:
            ((size, seats, r, c),) = tables
            every = _partitions(len(playing), size)
            if every is not None:
                # Few enough seatings to price them all at once: exact, and far quicker
                # than a solver call for the small windows of a big field.
                best = every[int(np.argmin((r * repeat_weight + c)[every].sum(axis=1)))]
                return [tuple(group[i] for i in seats[row]) for row in best], []
        blocks = [Candidates(size, seats, r * repeat_weight + c) for size, seats, r, c in tables]
        counts = dict(Counter(sizes))
        if byes:
            blocks.append(Candidates(_BYE, takers.reshape(-1, 1), bye_costs.astype(float)))
            counts[_BYE] = byes
        found, sitting_out = [], []
        # Repeats and score spread are solved exactly; the standing spread (term 3) to within
        # less than one step of the score spread: branch and bound spends most of its time
        # separating seatings equal up to term 3.
        tolerance = 0.99 * self.spread_weight * self.unit
        for block, row in cheapest_partition(len(group), blocks, counts, tolerance=tolerance):
            picked = tuple(group[i] for i in blocks[block].members[row])
            if blocks[block].kind == _BYE:
                sitting_out.append(picked[0])
            else:
                found.append(picked)
        return found, sitting_out

    def down_the_standings(self, seated: Sequence[Player], sizes: Sequence[int]) -> list[Table]:
        """Tables for a big field: slices where nobody has met, exact windows elsewhere."""
        pool = list(seated)
        todo = list(sizes)  # largest first: smaller tables, if any, fall to the bottom
        done: list[Table] = []
        while todo:
            head = tuple(pool[: todo[0]])
            if len(todo) == 1 or not self.repeated(head):
                kept = [head]
            else:
                span = WINDOW_TABLES
                while True:
                    span = min(span, len(todo))
                    tables, _ = self.solve(pool[: sum(todo[:span])], todo[:span], 0)
                    if span in (len(todo), MAX_WINDOW_TABLES) or not any(
                        self.repeated(t) for t in tables
                    ):
                        break
                    span += 1
                kept = sorted(tables, key=self.best)
                if span < len(todo):
                    kept.pop()  # the worst placed table floats down into the next window
            for table in kept:
                done.append(table)
                todo.remove(len(table))
                for p in table:
                    pool.remove(p)
        return done
