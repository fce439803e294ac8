"""Sets of one number: which mixes of colours and jokers split into legal sets, and how.

A set is 3-4 tiles of one number in different colours, so the tiles of one number that go
to sets can be split only if no colour repeats within a set.  Whether a split exists depends
only on how many colours bring two tiles (``pairs``), how many bring one (``singles``) and
how many jokers join, so the solver asks a table worked out once by exhaustive search.
"""

from __future__ import annotations

from functools import cache

# Two copies of each tile and two jokers: at most three sets share a number.
MAX_SETS = 3


@cache
def split_sets(
    colours: tuple[int, ...], jokers: int
) -> tuple[tuple[tuple[int, ...], int], ...] | None:
    """Split real tiles (``colours``: one colour index per tile, sorted) and ``jokers`` into
    sets, each as (its colours, its joker count); ``None`` when no split exists.  The empty
    input splits into no sets.  The search is exhaustive and takes the first split found in
    a fixed order, so the answer never depends on anything but the input."""
    if not colours:
        return () if jokers == 0 else None
    groups: list[list[int]] = [[] for _ in range(MAX_SETS)]

    def place(i: int) -> tuple[tuple[tuple[int, ...], int], ...] | None:
        if i == len(colours):
            used = [g for g in groups if g]
            short = sum(max(0, 3 - len(g)) for g in used)
            room = sum(4 - len(g) for g in used)
            if not short <= jokers <= room:
                return None
            # Fill the short sets first, then give what is left to sets with room.
            left = jokers
            added = []
            for g in used:
                need = max(0, 3 - len(g))
                added.append(need)
                left -= need
            for k, g in enumerate(used):
                extra = min(left, 4 - len(g) - added[k])
                added[k] += extra
                left -= extra
            return tuple((tuple(g), j) for g, j in zip(used, added, strict=True))
        seen_empty = False
        for g in groups:
            if colours[i] in g or len(g) == 4:
                continue
            if not g:
                # Empty groups are interchangeable: trying one is enough.
                if seen_empty:
                    continue
                seen_empty = True
            g.append(colours[i])
            found = place(i + 1)
            g.pop()
            if found is not None:
                return found
        return None

    return place(0)


@cache
def sets_feasible(pairs: int, singles: int, jokers: int) -> bool:
    """Whether ``pairs`` colours with two tiles, ``singles`` with one and ``jokers`` jokers of
    one number split into legal sets."""
    colours = tuple(sorted([*range(pairs), *range(pairs), *range(pairs, pairs + singles)]))
    return split_sets(colours, jokers) is not None
