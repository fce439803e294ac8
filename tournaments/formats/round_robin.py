"""Round robin: every player meets every other, as evenly as the numbers allow.

At tables of 2 it is the classic circle schedule: one player stays put while the others turn
round them, so with ``n`` players every pair meets exactly once in ``n - 1`` rounds (``n``
rounds and one bye each when ``n`` is odd).

At tables of 3 and 4 an exact "everyone once" schedule exists only for special counts
(Kirkman-type designs), so the schedule is searched for, in two steps:

1. **The fewest rounds.**  Starting at a lower bound (every player must sit with ``n - 1``
   others, ``seats - 1`` a round), the number of rounds grows by one until the search seats
   every pair at least once.
2. **The tightest spread at that many rounds.**  Then it looks for a schedule whose meeting
   counts all lie in a window ``[low, low + width]``, for the narrowest width first: from
   ``spread_lower_bound`` (a counting argument) up to the spread step 1 found.

The search is simulated annealing over whole schedules: swap two players between tables of
a round, or swap a bye with a seat across two rounds (so each player keeps their number of
byes, which rotate down the list and so differ by at most one).  Its cost is how far the
meeting counts fall outside the window (squared), so it is zero exactly when the schedule
qualifies.  It is seeded by the field's size, so the same field always gets the same
schedule, and its effort is bounded, so a large field still gets a schedule quickly.
``tests/tournaments/test_round_robin.py`` lists, for every field of 3-12 players, the spread
reached against the best possible (proven by ``bench/round_robin_optimum.py``, an exact
HiGHS model).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import comb

from .tables import Player, Round, table_sizes

# Annealing steps per round of the schedule and per player, for one search.
SEARCH_EFFORT = 300
# How many searches step 2 may spend on narrower windows before it keeps what it has.
TIGHTENING_SEARCHES = 12
# Bigger fields get fewer (each search is longer), so their schedule still comes in seconds.
TIGHTENED_UP_TO = 12
FEW_SEARCHES = 3
# Searches per window before a width is given up.
ATTEMPTS = 3

IndexSchedule = tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]


def round_robin(
    players: Sequence[Player], seats: int, *, min_table: int | None = None
) -> list[Round]:
    """A round robin schedule for ``players`` at tables of ``seats`` (2-4).

    ``min_table`` (3-4 seats only; default ``seats``) allows smaller tables instead of byes,
    as ``tables.table_sizes`` explains. Guarantees (tested for 3-12 players): every pair
    meets at least once; bye counts differ by at most one; at tables of 2 every pair meets
    exactly once; at tables of 3-4 the meeting counts are spread as the module says.
    """
    field = list(players)
    if len(set(field)) != len(field):
        raise ValueError("a player is listed twice")
    table_sizes(len(field), seats, min_table)  # validates the counts
    if seats == 2:
        return _circle(field)
    return [
        Round(
            tuple(tuple(field[i] for i in table) for table in tables),
            tuple(field[i] for i in out),
        )
        for tables, out in _schedule(len(field), seats, min_table)
    ]


def _circle(field: list[Player]) -> list[Round]:
    ring: list[Player | None] = [*field, None] if len(field) % 2 else list(field)
    rounds = []
    for _ in range(len(ring) - 1):
        tables, byes = [], []
        for i in range(len(ring) // 2):
            a, b = ring[i], ring[-1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                tables.append((a, b))
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def minimum_rounds(players: int, seats: int, min_table: int | None = None) -> int:
    """A lower bound on the rounds needed for every pair to meet at tables of ``seats``."""
    sizes, byes = table_sizes(players, seats, min_table)
    rounds = 1
    while True:
        # The player with the most byes still has to sit with everyone else.
        most_byes = -(-rounds * byes // players)
        if (rounds - most_byes) * (max(sizes) - 1) >= players - 1:
            return rounds
        rounds += 1


def spread_lower_bound(players: int, seats: int, rounds: int, min_table: int | None = None) -> int:
    """No schedule of ``rounds`` rounds has meeting counts closer together than this.

    Counting: with tables all of one size ``s``, a player with ``b`` byes shares a table
    with others ``(rounds - b) * (s - 1)`` times, spread over ``players - 1`` partners, so
    some partner meets them at least the ceiling of that share and some at most its floor.
    Byes differ by at most one, so the bound is the highest ceiling minus the lowest floor.
    Mixed table sizes (a ``min_table`` below ``seats``) give no such count: 0 there.
    """
    sizes, byes = table_sizes(players, seats, min_table)
    if len(set(sizes)) != 1 or players < 2:
        return 0
    fewest, extra = divmod(rounds * byes, players)
    shares = {(rounds - fewest) * (sizes[0] - 1)}
    if extra:
        shares.add((rounds - fewest - 1) * (sizes[0] - 1))
    return max(-(-s // (players - 1)) for s in shares) - min(s // (players - 1) for s in shares)


@cache
def _schedule(n: int, seats: int, min_table: int | None) -> IndexSchedule:
    """The schedule by positions in the field (cached: pairing asks for it every round)."""
    sizes, byes = table_sizes(n, seats, min_table)
    rng = random.Random(f"round-robin/{n}/{seats}/{min_table}")
    rounds = minimum_rounds(n, seats, min_table)
    while True:
        search = _Search(n, sizes, byes, rounds, rng)
        found = search.run(1, rounds)
        if found is not None:
            break
        rounds += 1
    low, high = _counts_range(found, n)
    pair_meetings = rounds * sum(comb(size, 2) for size in sizes) / comb(n, 2)
    floor = spread_lower_bound(n, seats, rounds, min_table)
    searches = 0
    # Narrow the window one step at a time (each search from a fresh random schedule: a
    # schedule that only just qualified for a wider window proved a poor start); stop at
    # the counting bound or when a width cannot be reached.
    for width in range(high - low - 1, floor - 1, -1):
        # Every count in [low_end, low_end + width], a window that holds their mean.
        ends = range(max(1, math.ceil(pair_meetings) - width), int(pair_meetings) + 1)
        tighter = None
        for low_end in [end for end in ends for _attempt in range(ATTEMPTS)]:
            if searches == (TIGHTENING_SEARCHES if n <= TIGHTENED_UP_TO else FEW_SEARCHES):
                return found
            searches += 1
            search = _Search(n, sizes, byes, rounds, rng)
            tighter = search.run(low_end, low_end + width)
            if tighter is not None:
                break
        if tighter is None:
            return found
        found = tighter
    return found


def _counts_range(schedule: IndexSchedule, n: int) -> tuple[int, int]:
    count = [[0] * n for _ in range(n)]
    for tables, _out in schedule:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                count[a][b] += 1
    values = [count[a][b] for a, b in combinations(range(n), 2)]
    return min(values), max(values)


class _Search:
    """One annealing run for schedules of ``rounds`` rounds with every pair's meeting count
    in a window (see the module docstring)."""

    def __init__(
        self, n: int, sizes: list[int], byes: int, rounds: int, rng: random.Random
    ) -> None:
        self.n, self.rounds, self.rng = n, rounds, rng
        self.count = [[0] * n for _ in range(n)]
        self.tables: list[list[list[int]]] = []
        self.out: list[list[int]] = []
        for r in range(rounds):
            out = [(r * byes + i) % n for i in range(byes)]
            seated = [p for p in range(n) if p not in out]
            rng.shuffle(seated)
            tables, start = [], 0
            for size in sizes:
                tables.append(seated[start : start + size])
                start += size
            for table in tables:
                for a, b in combinations(table, 2):
                    self.count[a][b] += 1
                    self.count[b][a] += 1
            self.tables.append(tables)
            self.out.append(out)

    def run(self, low: int, high: int) -> IndexSchedule | None:
        def cost(c: int) -> int:
            return (low - c) ** 2 if c < low else (c - high) ** 2 if c > high else 0

        count, rng = self.count, self.rng
        self.cost = cost
        total = sum(cost(count[a][b]) for a, b in combinations(range(self.n), 2))
        several = [r for r in range(self.rounds) if len(self.tables[r]) > 1]
        with_byes = [r for r in range(self.rounds) if self.out[r]]
        budget = SEARCH_EFFORT * self.rounds * self.n
        for step in range(budget):
            if total == 0:
                return self._frozen()
            # Now and then a worse schedule is taken, less often as the search cools, so it
            # climbs out of local minima.
            heat = 0.6 * (1 - step / budget) + 0.02
            if with_byes and (not several or rng.random() < 0.3):
                delta = self._swap_bye(rng.choice(with_byes), with_byes, heat)
            elif several:
                delta = self._swap_seats(rng.choice(several), heat)
            else:
                break
            total += delta
        return self._frozen() if total == 0 else None

    def _frozen(self) -> IndexSchedule:
        return tuple(
            (tuple(tuple(t) for t in tables), tuple(out))
            for tables, out in zip(self.tables, self.out, strict=True)
        )

    def _shift(self, p: int, table: list[int], step: int) -> int:
        """``p`` joins (+1) or leaves (-1) ``table``'s others; the change of cost."""
        count, cost, delta = self.count, self.cost, 0
        for o in table:
            if o != p:
                c = count[p][o]
                delta += cost(c + step) - cost(c)
                count[p][o] = count[o][p] = c + step
        return delta

    def _accept(self, delta: int, heat: float) -> bool:
        return delta <= 0 or self.rng.random() < math.exp(-delta / heat)

    def _swap_seats(self, r: int, heat: float) -> int:
        tables, rng = self.tables[r], self.rng
        a, b = rng.sample(range(len(tables)), 2)
        A, B = tables[a], tables[b]
        i, j = rng.randrange(len(A)), rng.randrange(len(B))
        p, q = A[i], B[j]
        delta = self._shift(p, A, -1) + self._shift(q, B, -1)
        A[i], B[j] = q, p
        delta += self._shift(q, A, 1) + self._shift(p, B, 1)
        if self._accept(delta, heat):
            return delta
        self._shift(q, A, -1)
        self._shift(p, B, -1)
        A[i], B[j] = p, q
        self._shift(p, A, 1)
        self._shift(q, B, 1)
        return 0

    def _swap_bye(self, r1: int, with_byes: list[int], heat: float) -> int:
        """``p`` sits out round ``r1`` and ``q`` plays it; in a round where ``q`` sits out
        and ``p`` plays they change places too, so neither's number of byes changes."""
        rng = self.rng
        out1, tables1 = self.out[r1], self.tables[r1]
        i = rng.randrange(len(out1))
        T1 = tables1[rng.randrange(len(tables1))]
        j = rng.randrange(len(T1))
        p, q = out1[i], T1[j]
        others = [r for r in with_byes if q in self.out[r] and p not in self.out[r]]
        if not others:
            return 0
        r2 = rng.choice(others)
        out2 = self.out[r2]
        T2 = next(t for t in self.tables[r2] if p in t)
        k, i2 = T2.index(p), out2.index(q)
        delta = self._shift(q, T1, -1)
        T1[j], out1[i] = p, q
        delta += self._shift(p, T1, 1) + self._shift(p, T2, -1)
        T2[k], out2[i2] = q, p
        delta += self._shift(q, T2, 1)
        if self._accept(delta, heat):
            return delta
        self._shift(q, T2, -1)
        T2[k], out2[i2] = p, q
        self._shift(p, T2, 1)
        self._shift(p, T1, -1)
        T1[j], out1[i] = q, p
        self._shift(q, T1, 1)
        return 0
