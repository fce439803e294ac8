"""An independent brute force for small Rummikub positions, for the solver's tests.

It shares nothing with the solver: it tries every sub-multiset of the rack, and for each
tries every way to split the tiles into groups, judging each group by the rules of melds
written out afresh here.  ``family`` chooses which groups count as melds: every legal meld,
or only those the rummikub-solver package knows (runs of 3, runs of 4-5 whose ends are real
tiles, sets of 3, sets of 4 without a joker; longer runs are unions of these).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, product

from games.engine.tiles import JOKER, Tile

NO = -1  # no legal reading


def best_reading(group: tuple[Tile, ...]) -> int:
    """The highest total of a legal reading of ``group`` as one meld (a joker worth the tile
    it stands for), or ``NO``."""
    size = len(group)
    real = [t for t in group if not t.is_joker]
    if size < 3 or not real:
        return NO
    best = NO
    numbers = {t.number for t in real}
    colours = [t.colour for t in real]
    if size <= 4 and len(numbers) == 1 and len(set(colours)) == len(colours):
        best = size * real[0].number
    if len(set(colours)) == 1 and len(numbers) == len(real):
        low, high = min(numbers), max(numbers)
        # The run covers low..high; the spare length goes above as far as 13 allows.
        for start in range(1, low + 1):
            end = start + size - 1
            if end <= 13 and end >= high:
                best = max(best, sum(range(start, end + 1)))
    return best


def package_reading(group: tuple[Tile, ...]) -> int:
    """Like ``best_reading``, for the package's smaller family of melds."""
    value = best_reading(group)
    if value == NO:
        return NO
    jokers = sum(t.is_joker for t in group)
    real = [t for t in group if not t.is_joker]
    numbers = {t.number for t in real}
    if len(group) == 3 or jokers == 0:
        return value if len(group) <= 5 else NO
    if len(numbers) == 1 and len(group) == 4 and len({t.colour for t in real}) == len(real):
        # A 4-set with a joker is out; a 4-run of one real tile and 3 jokers cannot occur.
        return NO
    if len(group) <= 5 and max(numbers) - min(numbers) == len(group) - 1:
        return value  # a run whose ends are real tiles
    return NO


Reading = Callable[[tuple[Tile, ...]], int]


def arrange_value(tiles: Sequence[Tile], reading: Reading) -> int:
    """The highest total over all ways to split ``tiles`` into melds, or ``NO``."""

    @cache
    def split(rest: tuple[Tile, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = NO
        seen: set[tuple[Tile, ...]] = set()
        # Only tiles of the first one's colour or number, and jokers, can share its meld.
        near = [
            i
            for i, t in enumerate(others)
            if t.is_joker or t.colour == first.colour or t.number == first.number
        ]
        for size in range(2, min(len(near), 12) + 1):
            for picked in combinations(near, size):
                group = (first, *(others[i] for i in picked))
                if group in seen:
                    continue
                seen.add(group)
                value = reading(group)
                if value == NO:
                    continue
                left = tuple(t for i, t in enumerate(others) if i not in picked)
                below = split(left)
                if below != NO:
                    best = max(best, value + below)
        return best

    # Real tiles first, so a group always starts from one.
    return split(tuple(sorted(tiles, key=lambda t: (t.is_joker, t.colour, t.number))))


def sub_racks(rack: Sequence[Tile]) -> list[list[Tile]]:
    counts = sorted(Counter(rack).items())
    return [
        [t for (t, _), k in zip(counts, ks, strict=True) for _ in range(k)]
        for ks in product(*(range(n + 1) for _, n in counts))
    ]


def optimum(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    joker_value: int,
    objective: str = "tiles",
    *,
    initial: bool = False,
    minimum: int = 30,
    reading: Reading = best_reading,
) -> tuple[int, int] | None:
    """The best (tiles, points) a move can place, or ``None`` when no move places a tile."""
    table_tiles = [t for meld in table for t in meld]

    def goal(placed: list[Tile]) -> tuple[int, int]:
        points = sum(joker_value if t == JOKER else t.number for t in placed)
        return (len(placed), points) if objective == "tiles" else (points, len(placed))

    best: tuple[int, int] | None = None
    for placed in sorted(sub_racks(rack), key=goal, reverse=True):
        if not placed or (best is not None and goal(placed) <= best):
            continue
        if initial:
            ok = arrange_value(placed, reading) >= minimum
        else:
            ok = arrange_value([*table_tiles, *placed], reading) != NO
        if ok:
            best = goal(placed)
            break
    if best is None:
        return None
    return best if objective == "tiles" else (best[1], best[0])


def strict_optimum(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    joker_value: int,
    pins: Sequence[Sequence[Tile]],
    *,
    from_rack: bool,
    locks: bool,
    own: bool = False,
    objective: str = "tiles",
) -> tuple[int, int] | None:
    """The best (tiles, points) under the stricter joker rules, read on the table after the
    move: each table joker (``pins`` in table order) either keeps standing for one of its
    tiles (then it is that tile wherever it ends up) or is freed by a real such tile on the
    table after the move, one tile a joker (from the rack when ``from_rack``).  With
    ``locks``, a meld keeping its joker ends up inside one meld, whole; with ``own``, a
    freed joker ends up in a meld whose other tiles all come from the rack (not counting
    the tile that took its place)."""

    def goal(placed: list[Tile]) -> tuple[int, int]:
        points = sum(joker_value if t == JOKER else t.number for t in placed)
        return (len(placed), points) if objective == "tiles" else (points, len(placed))

    choices = [[(keep, x) for x in tiles for keep in (True, False)] for tiles in pins]
    for placed in sorted(sub_racks(rack), key=goal, reverse=True):
        if not placed:
            continue
        if any(
            _strict_fits(table, placed, choice, from_rack, locks, own)
            for choice in product(*choices)
        ):
            best = goal(placed)
            return best if objective == "tiles" else (best[1], best[0])
    return None


TABLE, RACK, OWN = "table", "rack", "own"  # where an item's tiles come from
Item = tuple[tuple[Tile, str], ...]


def _strict_fits(
    table: Sequence[Sequence[Tile]],
    placed: list[Tile],
    choice: tuple[tuple[bool, Tile], ...],
    from_rack: bool,
    locks: bool,
    own: bool,
) -> bool:
    freed = Counter(x for keep, x in choice if not keep)
    # A tile held in a locked meld cannot leave it to take a joker's place.
    pick = iter(choice)
    table_real: Counter[Tile] = Counter()
    for meld in table:
        mine = [next(pick) for t in meld if t.is_joker]
        if not (locks and any(keep for keep, _ in mine)):
            table_real.update(t for t in meld if not t.is_joker)
    placed_real = Counter(placed)
    for x, count in freed.items():
        if count > placed_real[x] + (0 if from_rack else table_real[x]):
            return False
    # Items to split into melds: loose tiles, and locked melds as bundles (a kept joker is
    # the tile it stands for).
    items: list[Item] = []
    pick = iter(choice)
    for meld in table:
        mine = [next(pick) for t in meld if t.is_joker]
        stand = iter(x for _, x in mine)
        tiles = [next(stand) if t.is_joker else t for t in meld]
        if locks and any(keep for keep, _ in mine):
            items.append(tuple((t, TABLE) for t in tiles))
            continue
        # A freed joker is a joker again; a kept one is its tile.
        again = iter(mine)
        for t in meld:
            if t.is_joker:
                keep, x = next(again)
                items.append(((x, TABLE),) if keep else ((JOKER, OWN if own else TABLE),))
            else:
                items.append(((t, TABLE),))
    # A rack tile that frees a joker takes the joker's place: it is not one of the "own"
    # tiles a freed joker's new meld needs (table copies free jokers first).
    replacing = Counter(
        {x: count - (0 if from_rack else table_real[x]) for x, count in freed.items()}
    )
    for t in placed:
        if replacing[t] > 0:
            replacing[t] -= 1
            items.append(((t, TABLE),))
        else:
            items.append(((t, RACK),))
    return _split_items(tuple(sorted(items, key=_item_key)))


def _item_key(item: Item) -> tuple[int, str, int, str]:
    # Bundles first (they must lead a group), then real tiles, jokers last.
    first, origin = item[0]
    kind = 0 if len(item) > 1 else 1 if not first.is_joker else 2
    return (kind, first.colour, first.number, origin)


@cache
def _split_items(items: tuple[Item, ...]) -> bool:
    if not items:
        return True
    first, others = items[0], items[1:]
    lead = first[0][0]
    near = [
        i
        for i, item in enumerate(others)
        if lead.is_joker
        or any(t.is_joker or t.colour == lead.colour or t.number == lead.number for t, _ in item)
    ]
    for size in range(0, min(len(near), 12) + 1):
        for picked in combinations(near, size):
            members = [*first, *(m for i in picked for m in others[i])]
            if any(o == OWN for _, o in members) and any(o == TABLE for _, o in members):
                continue  # a freed joker's meld is made of rack tiles only
            group = tuple(sorted((t for t, _ in members), key=_tile_key))
            if len(group) < 3 or best_reading(group) == NO:
                continue
            if _split_items(tuple(item for i, item in enumerate(others) if i not in picked)):
                return True
    return False


def _tile_key(tile: Tile) -> tuple[bool, str, int]:
    return (tile.is_joker, tile.colour, tile.number)
