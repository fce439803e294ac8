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
windows a repeat can remain that a seating reaching further than ``MAX_WINDOW_TABLES`` tables
could have avoided, so repairs follow, each only while repeats remain:

- swaps (and cycles of three) of players between tables, and between a table and the byes
  among players who may sit out, while a move lowers the number of repeats, the least spread
  first (any field size);
- up to ``MAX_REPAIRED_FIELD`` players, if repeats remain, one exact solve of the whole
  field over the tables of players who have never met plus the repaired seating's own
  tables: when a seating without any repeat exists it is found, at the least spread. Late
  rounds have few such tables, so this stays well under a second;
- if repeats still remain, the fewest possible are found by an exact solve counting repeats
  only (a second or so; ``FEWEST_REPEATS_SECONDS`` at most), and when that is fewer, its
  seating is taken and then improved by swaps that lower the spread without adding a
  repeat. In such rounds the number of repeats is the least possible; the spread is good,
  not proven least.

The tests pin exactness on the whole-field sizes against a brute force, and on bigger fields
check every repeat left against an exact search (``bench/swiss_repeats.py`` does the same over
more rounds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations, pairwise, permutations
from math import comb, factorial

import numpy as np

from .partition import Candidates, NoPartition, cheapest_partition
from .tables import Player, Round, Table, bye_counts, meetings, table_sizes

EXACT_COLUMNS = 5_000
WINDOW_TABLES = 3
MAX_WINDOW_TABLES = 5
# Cycles of three players are looked for up to this many players (swaps at any size).
MAX_CYCLE_FIELD = 64
# A spread change smaller than this is rounding, not a gain (spreads are sums of integers
# and their multiples by ``spread_weight``).
SPREAD_STEP = 1e-6
MAX_REPAIRED_FIELD = 40
# Time for the search of the fewest repeats (``_Pairing.fewest_repeats``).
FEWEST_REPEATS_SECONDS = 10.0

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
        tables, sitting_out = pairing.swap_out_repeats(tables, sitting_out, may)
        if len(order) <= MAX_REPAIRED_FIELD and any(map(pairing.repeated, tables)):
            tables, sitting_out = pairing.solve(order, sizes, byes, must, may, fallback=tables)
            found = sum(map(pairing.repeated, tables))
            fewest = pairing.fewest_repeats(order, sizes, byes, must, may) if found else None
            if fewest is not None and sum(map(pairing.repeated, fewest[0])) < found:
                tables, sitting_out = pairing.swap_out_repeats(*fewest, may, spread_too=True)
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

    def __init__(
        self,
        order: Sequence[Player],
        scores: Mapping[Player, float],
        met: Counter[frozenset[Player]],
    ):
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
        fallback: Sequence[Table] | None = None,
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
            if fallback is not None:
                # Only tables of new meetings, and the fallback's own tables of this size
                # (so a seating exists): a seating without repeats needs no other table.
                fresh = repeat[seats[:, first], seats[:, second]].sum(axis=1) == 0
                where = {p: i for i, p in enumerate(group)}
                own = [sorted(where[p] for p in t) for t in fallback if len(t) == size]
                seats = np.vstack([seats[fresh], np.array(own, dtype=np.int64).reshape(-1, size)])
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
        if not byes and len(tables) == 1 and fallback is None:
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
        # Repeats and score spread are solved exactly; the standing spread (term 3) to within
        # less than one step of the score spread: branch and bound spends most of its time
        # separating seatings equal up to term 3.
        tolerance = 0.99 * self.spread_weight * self.unit
        picked = cheapest_partition(len(group), blocks, counts, tolerance=tolerance)
        return _seating(group, blocks, picked)

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

    def _cost(self, table: Sequence[Player]) -> tuple[int, float]:
        """A table's repeats, then its spread (terms 2 and 3 together)."""
        spread = 0.0
        for a, b in combinations(table, 2):
            spread += abs(self.score[a] - self.score[b]) * self.spread_weight
            spread += abs(self.rank[a] - self.rank[b])
        return self.repeated(table), spread

    def _bye_cost(self, player: Player) -> tuple[int, float]:
        """A bye's cost as the solve prices it: its player's standing from the bottom."""
        return 0, float(len(self.rank) - 1 - self.rank[player])

    def swap_out_repeats(
        self,
        tables: Sequence[Table],
        byes: Sequence[Player],
        may: Sequence[Player],
        *,
        spread_too: bool = False,
    ) -> tuple[list[Table], list[Player]]:
        """Move players while a move lowers the round's repeats (see the module docstring);
        with ``spread_too``, also while a move lowers the spread without adding a repeat.

        A move is a swap of two players, or (when no swap removes a repeat, on fields up to
        ``MAX_CYCLE_FIELD`` players) a cycle of three: each of three players takes the next
        one's seat. A seat "out" (a bye) takes and gives only players who may sit out, so the
        bye counts stay as fair. The move with the best gain is made, repeats first.
        """
        groups = [list(t) for t in tables] + [[p] for p in byes]
        first_bye = len(tables)
        may_out = set(may)

        def cost(group: int, members: Sequence[Player]) -> tuple[int, float]:
            return self._cost(members) if group < first_bye else self._bye_cost(members[0])

        costs = [cost(g, members) for g, members in enumerate(groups)]

        def gain(cycle: Sequence[tuple[int, int]]) -> tuple[int, float] | None:
            """The change in (repeats, spread) when each position's player moves to the
            next position (the last to the first), or None when a bye rule forbids it."""
            repeats = spread = 0.0
            for k, (group, at) in enumerate(cycle):
                mover = groups[cycle[k - 1][0]][cycle[k - 1][1]]
                members = groups[group]
                if group >= first_bye and not (mover in may_out and members[at] in may_out):
                    return None
                new = cost(group, [*members[:at], mover, *members[at + 1 :]])
                repeats += new[0] - costs[group][0]
                spread += new[1] - costs[group][1]
            return int(repeats), spread

        positions = [(g, at) for g, group in enumerate(groups) for at in range(len(group))]
        while True:
            starts = [(g, at) for g, at in positions if g < first_bye and costs[g][0]]
            best = self._best_move(starts, positions, 2, gain, spread_too=False)
            if best is None and len(positions) <= MAX_CYCLE_FIELD:
                best = self._best_move(starts, positions, 3, gain, spread_too=False)
            if best is None and spread_too:
                best = self._best_move(positions, positions, 2, gain, spread_too=True)
            if best is None:
                break
            movers = [groups[g][at] for g, at in best]
            for k, (g, at) in enumerate(best):
                groups[g][at] = movers[k - 1]
            for g in {g for g, _ in best}:
                costs[g] = cost(g, groups[g])
        return [tuple(g) for g in groups[:first_bye]], [g[0] for g in groups[first_bye:]]

    @staticmethod
    def _best_move(
        starts: Sequence[tuple[int, int]],
        positions: Sequence[tuple[int, int]],
        length: int,
        gain: Callable[[Sequence[tuple[int, int]]], tuple[int, float] | None],
        *,
        spread_too: bool,
    ) -> list[tuple[int, int]] | None:
        """The cycle of ``length`` positions in different groups, the first in ``starts``,
        with the best gain: one that removes a repeat, or (``spread_too``) one that lowers
        the spread without adding a repeat."""
        best, best_gain = None, (0, -SPREAD_STEP)
        for start in starts:
            for rest in permutations(positions, length - 1):
                cycle = [start, *rest]
                if len({g for g, _ in cycle}) < length:
                    continue
                change = gain(cycle)
                if change is None or change[0] > 0 or (change[0] == 0 and not spread_too):
                    continue
                if change < best_gain:
                    best, best_gain = cycle, change
        return best

    def fewest_repeats(
        self,
        group: Sequence[Player],
        sizes: Sequence[int],
        byes: int,
        must: Sequence[Player],
        may: Sequence[Player],
    ) -> tuple[list[Table], list[Player]] | None:
        """A seating with the fewest repeats possible (byes as fair as always), the spread
        not looked at; None if the solver found none in ``FEWEST_REPEATS_SECONDS``."""
        out, may_out = set(must), set(may)
        playing = np.array([i for i, p in enumerate(group) if p not in out], dtype=np.int64)
        repeat = np.zeros((len(group), len(group)))
        for i, j in combinations(range(len(group)), 2):
            repeat[i, j] = frozenset((group[i], group[j])) in self.met
        blocks = []
        for size in sorted(set(sizes), reverse=True):
            seats = playing[_combinations(len(playing), size)]
            first, second = np.array(list(combinations(range(size), 2))).T
            blocks.append(Candidates(size, seats, repeat[seats[:, first], seats[:, second]].sum(1)))
        counts = dict(Counter(sizes))
        if byes:
            takers = [i for i, p in enumerate(group) if p in out or p in may_out]
            blocks.append(Candidates(_BYE, np.array(takers).reshape(-1, 1), np.zeros(len(takers))))
            counts[_BYE] = byes
        try:
            picked = cheapest_partition(len(group), blocks, counts, seconds=FEWEST_REPEATS_SECONDS)
        except NoPartition:
            return None
        return _seating(group, blocks, picked)


def _seating(
    group: Sequence[Player], blocks: Sequence[Candidates], picked: Sequence[tuple[int, int]]
) -> tuple[list[Table], list[Player]]:
    """The tables and the byes of a partition's chosen groups (``group``'s indices)."""
    tables, sitting_out = [], []
    for block, row in picked:
        members = tuple(group[i] for i in blocks[block].members[row])
        if blocks[block].kind == _BYE:
            sitting_out.append(members[0])
        else:
            tables.append(members)
    return tables, sitting_out
