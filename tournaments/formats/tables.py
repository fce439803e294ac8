"""What every format shares: a player, a round of tables, how a field splits into tables.

A player is any hashable value (a user id, a registration id); the formats never compare or
sort players themselves, only their positions in the sequences they are given, so results
are deterministic for any kind of id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

Player = Hashable
Table = tuple[Player, ...]

MIN_SEATS = 2
MAX_SEATS = 4


@dataclass(frozen=True)
class Round:
    """One round: the tables (each a tuple of players, in the order given to the seats) and
    the players who sit it out."""

    tables: tuple[Table, ...]
    byes: tuple[Player, ...] = ()

    def players(self) -> list[Player]:
        return [p for table in self.tables for p in table] + list(self.byes)


def check_seats(seats: int, min_table: int | None = None) -> int:
    """Validate a seat count (2-4) and a smallest table (2..seats, default ``seats``);
    return the smallest table."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be {MIN_SEATS}-{MAX_SEATS}, not {seats}")
    smallest = seats if min_table is None else min_table
    if not MIN_SEATS <= smallest <= seats:
        raise ValueError(f"min_table must be {MIN_SEATS}-{seats}, not {min_table}")
    return smallest


def table_sizes(players: int, seats: int, min_table: int | None = None) -> tuple[list[int], int]:
    """How ``players`` sit at tables of at most ``seats`` and at least ``min_table`` (default
    ``seats``, so the remainder sits out): ``(sizes, byes)``.

    Byes are as few as possible, then tables as few as possible, and the seated players are
    spread evenly (sizes differ by at most one, largest first). A field smaller than
    ``min_table`` but of at least two plays at one table; a single player cannot play.

    >>> table_sizes(10, 4)
    ([4, 4], 2)
    >>> table_sizes(10, 4, min_table=3)
    ([4, 3, 3], 0)
    """
    smallest = check_seats(seats, min_table)
    if players < MIN_SEATS:
        raise ValueError(f"a round needs at least {MIN_SEATS} players, not {players}")
    if players < smallest:
        return [players], 0
    for byes in range(players):
        seated = players - byes
        tables = -(-seated // seats)
        if tables * smallest <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    raise AssertionError("unreachable: one table of min_table always fits")


def pairs_of(table: Sequence[Player]) -> Iterable[frozenset[Player]]:
    return (frozenset(pair) for pair in combinations(table, 2))


def meetings(rounds: Iterable[Round]) -> Counter[frozenset[Player]]:
    """How many times each pair of players has shared a table."""
    met: Counter[frozenset[Player]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            met.update(pairs_of(table))
    return met


def bye_counts(rounds: Iterable[Round]) -> Counter[Player]:
    return Counter(p for round_ in rounds for p in round_.byes)
