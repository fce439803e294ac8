"""Finding melds in a pile of tiles, for the bots.

:func:`best_arrangement` looks for melds that use every *required* tile (tiles already on the
table) and as many *optional* ones (the rack) as it can.  It is a depth-first search over the
lowest tile left, with a memo and a node budget: exact on small positions, and otherwise the
best it found in time.  Tiles are counted in two 53-slot vectors (52 numbered kinds and the
joker) so a search node costs little.  The exact solver (``games.engine.rummikub.solver``) is
a separate module; the hard bot prefers it when it is there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..tiles import COLOURS, JOKER, Tile
from .melds import HIGHEST, LOWEST, MAX_SET, MIN_MELD, RUN, SET, Meld

KINDS = len(COLOURS) * HIGHEST
JOKER_SLOT = KINDS

Found = tuple[int, int, tuple[Meld, ...]]  # placed, points, melds


@dataclass(frozen=True, slots=True)
class Arrangement:
    melds: tuple[Meld, ...]
    placed: int  # optional tiles used
    points: int  # value of the optional tiles used (a joker counts as what it stands for)


def slot(tile: Tile) -> int:
    if tile.is_joker:
        return JOKER_SLOT
    return COLOURS.index(tile.colour) * HIGHEST + tile.number - 1


def tile_at(index: int) -> Tile:
    if index == JOKER_SLOT:
        return JOKER
    return Tile(COLOURS[index // HIGHEST], index % HIGHEST + 1)


def vector(tiles: Iterable[Tile]) -> list[int]:
    counts = [0] * (KINDS + 1)
    for tile in tiles:
        counts[slot(tile)] += 1
    return counts


def melds_with(tile: Tile, pool: Counter[Tile]) -> Iterator[Meld]:
    """Every meld the ``pool`` (which holds ``tile``) can make with ``tile`` as its first
    numbered tile in colour-then-number order, jokers filling gaps."""
    counts = vector(pool.elements())
    yield from _melds_at(slot(tile), counts)


def _melds_at(index: int, counts: list[int]) -> Iterator[Meld]:
    tile = tile_at(index)
    jokers = counts[JOKER_SLOT]
    colour_index = COLOURS.index(tile.colour)
    # Sets: ``tile`` and later colours of its number.
    later = [
        c
        for k, c in enumerate(COLOURS)
        if k > colour_index and counts[k * HIGHEST + tile.number - 1]
    ]
    for mask in range(1 << len(later)):
        colours = [tile.colour, *(c for i, c in enumerate(later) if mask >> i & 1)]
        for extra in range(min(jokers, MAX_SET - len(colours)) + 1):
            if len(colours) + extra < MIN_MELD:
                continue
            missing = [c for c in COLOURS if c not in colours][:extra]
            reals = tuple(Tile(c, tile.number) for c in colours)
            joker_stands = tuple(Tile(c, tile.number) for c in missing)
            yield Meld(SET, (*reals, *(JOKER,) * extra), (*reals, *joker_stands))
    # Runs: ``tile`` is the lowest numbered tile; jokers may come before it and fill gaps.
    base = colour_index * HIGHEST
    for before in range(min(jokers, tile.number - LOWEST) + 1):
        start = tile.number - before
        used = before
        slots: list[Tile] = [JOKER] * before + [tile]
        stands: list[Tile] = [Tile(tile.colour, n) for n in range(start, tile.number + 1)]
        number = tile.number
        while number < HIGHEST:
            number += 1
            wanted = Tile(tile.colour, number)
            if counts[base + number - 1]:
                slots.append(wanted)
            elif used < jokers:
                used += 1
                slots.append(JOKER)
            else:
                break
            stands.append(wanted)
            if len(slots) >= MIN_MELD:
                yield Meld(RUN, tuple(slots), tuple(stands))


def best_arrangement(
    required: Counter[Tile],
    optional: Counter[Tile],
    *,
    points_first: bool = False,
    budget: int = 20_000,
) -> Arrangement | None:
    """Melds using all of ``required`` and the most of ``optional`` (by tile count, then
    value; ``points_first`` the other way round); None when the required tiles cannot all
    be used (within the budget)."""
    nodes = 0
    memo: dict[tuple[tuple[int, ...], tuple[int, ...]], Found | None] = {}

    def rank(found: Found) -> tuple[int, int]:
        placed, points, _ = found
        return (points, placed) if points_first else (placed, points)

    def search(req: tuple[int, ...], opt: tuple[int, ...]) -> Found | None:
        nonlocal nodes
        index = next((i for i in range(KINDS) if req[i] or opt[i]), None)
        if index is None:
            return None if req[JOKER_SLOT] else (0, 0, ())
        key = (req, opt)
        if key in memo:
            return memo[key]
        nodes += 1
        if nodes > budget:
            return None
        best: Found | None = None
        if not req[index]:  # leave one copy on the rack
            rest = list(opt)
            rest[index] -= 1
            best = search(req, tuple(rest))
        pool = [a + b for a, b in zip(req, opt, strict=True)]
        for meld in _melds_at(index, pool):
            req2, opt2 = list(req), list(opt)
            placed = points = 0
            for piece, stands in zip(meld.tiles, meld.stands_for, strict=True):
                at = slot(piece)
                if req2[at]:
                    req2[at] -= 1
                else:
                    opt2[at] -= 1
                    placed += 1
                    points += stands.number
            found = search(tuple(req2), tuple(opt2))
            if found is None:
                continue
            more_placed, more_points, melds = found
            found = (placed + more_placed, points + more_points, (meld, *melds))
            if best is None or rank(found) > rank(best):
                best = found
        memo[key] = best
        return best

    found = search(tuple(vector(required.elements())), tuple(vector(optional.elements())))
    if found is None:
        return None
    placed, points, melds = found
    return Arrangement(melds, placed, points)
