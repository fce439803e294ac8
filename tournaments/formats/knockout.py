"""Knockout brackets for tables of 2-4: each table's best ``advance`` players (1, or 2 at
tables of 4) go on, until one final table; seeding by rating.

Round 2 onwards is a full bracket: ``seats / advance`` tables feed each table of the next
round, so round 2 holds ``seats * (seats / advance) ** (rounds - 2)`` players. Round 1 cuts the
field to that number with as few tables as possible (full where it can, every table at least
one more player than it sends on); the players it does not need sit it out: those **byes**
are the top seeds. Seeds are placed so that, if the better seed always won, the best seeds
would meet as late as possible: each table's expected survivors are split across its feeder
tables in serpentine order, and round 1's newcomers are dealt weakest to the strongest table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .tables import Player, check_seats


@dataclass(frozen=True)
class Slot:
    """A seat of a bracket table: a known ``player`` (round 1, or a bye into round 2), with
    their ``seed`` (1 is best), or the winner of ``source``: ``(round, table, place)``, all
    counted from 0 (place 0 is the table's winner)."""

    seed: int | None = None
    player: Player | None = None
    source: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class BracketTable:
    slots: tuple[Slot, ...]
    advance: int  # how many go on (1 at the final: the tournament's winner)


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[tuple[BracketTable, ...], ...]
    byes: tuple[Player, ...]  # straight into round 2, best seed first
    seeds: tuple[Player, ...]  # seeds[0] is seed 1


def knockout(
    players: Sequence[Player], ratings: Sequence[float], seats: int, *, advance: int = 1
) -> Bracket:
    """The bracket for ``players`` (``ratings`` in the same order; higher is better, equal
    ratings keep the given order) at tables of ``seats``, ``advance`` going on per table."""
    check_seats(seats)
    if advance not in (1, 2) or (advance == 2 and seats != 4):
        raise ValueError("advance is 1, or 2 at tables of 4")
    if len(players) != len(ratings) or len(set(players)) != len(players):
        raise ValueError("one rating per player, each player once")
    if len(players) < 2:
        raise ValueError("a knockout needs at least 2 players")
    order = sorted(range(len(players)), key=lambda i: -ratings[i])
    seeds = tuple(players[i] for i in order)
    n, feeders = len(seeds), seats // advance
    if n <= seats:
        final = BracketTable(tuple(Slot(s + 1, seeds[s]) for s in range(n)), 1)
        return Bracket(((final,),), (), seeds)

    # Expected seeds per table, final first: each table's seeds split into its feeders.
    levels = [[list(range(1, seats + 1))]]
    while len(levels[-1]) * seats * feeders < n:
        levels.append(_expand(levels[-1], seats, advance, feeders))
    second = levels[-1]  # round 2's tables, in bracket order
    entering = len(second) * seats
    cut = n - entering  # players round 1 must eliminate
    tables_1 = -(-cut // (seats - advance))
    byes = entering - advance * tables_1
    # Round 1's tables take the slots of round 2 not given to byes, ``advance`` at a time.
    open_slots = [s for table in second for s in table if s > byes]
    groups = [open_slots[i : i + advance] for i in range(0, len(open_slots), advance)]
    by_strength = sorted(range(tables_1), key=lambda t: min(groups[t]))
    extra: list[list[int]] = [[] for _ in groups]
    newcomers = list(range(entering + 1, n + 1))
    for k, seed in enumerate(newcomers):
        lap, pos = divmod(k, tables_1)
        # Serpentine from the strongest table: the best newcomer to the weakest table.
        order_ = by_strength[::-1] if lap % 2 == 0 else by_strength
        extra[order_[pos]].append(seed)
    round_1 = [
        BracketTable(tuple(Slot(s, seeds[s - 1]) for s in sorted(groups[t] + extra[t])), advance)
        for t in range(tables_1)
    ]
    feeds = {s: (0, t, place) for t in range(tables_1) for place, s in enumerate(sorted(groups[t]))}
    rounds = [tuple(round_1)]
    previous = {s: feeds[s] for s in feeds}  # expected seed -> its source
    for depth, level in enumerate(reversed(levels)):
        number = depth + 1
        tables = []
        for table in level:
            slots = []
            for s in sorted(table):
                if number == 1 and s <= byes:
                    slots.append(Slot(s, seeds[s - 1]))
                else:
                    slots.append(Slot(source=previous[s]))
            tables.append(BracketTable(tuple(slots), 1 if len(level) == 1 else advance))
        previous = {
            s: (number, t, place)
            for t, table in enumerate(level)
            for place, s in enumerate(sorted(table)[:advance])
        }
        rounds.append(tuple(tables))
    return Bracket(tuple(rounds), seeds[:byes], seeds)


def _expand(level: list[list[int]], seats: int, advance: int, feeders: int) -> list[list[int]]:
    """The tables feeding ``level``: each table's seeds go ``advance`` to a feeder, dealt
    serpentine, and the feeders are topped up with the next seeds, weakest to strongest."""
    result: list[list[int]] = []
    for table in level:
        parts: list[list[int]] = [[] for _ in range(feeders)]
        for k, seed in enumerate(sorted(table)):
            lap, pos = divmod(k, feeders)
            parts[pos if lap % 2 == 0 else feeders - 1 - pos].append(seed)
        result.extend(parts)
    known = max(s for table in level for s in table)
    strongest_first = sorted(range(len(result)), key=lambda t: min(result[t]))
    seed = known + 1
    for lap in range(seats - advance):
        ordering = strongest_first[::-1] if lap % 2 == 0 else strongest_first
        for t in ordering:
            result[t].append(seed)
            seed += 1
    return result
