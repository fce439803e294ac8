"""Concrete candidate actions for a seat: the melds its rack can make, the tiles it can add,
the Jolys it can free, the discard-row tiles it can pick.  Candidates are cheap guesses;
``apply`` stays the judge (a first meld may still be too low, for instance)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from typing import TypeVar

from ..errors import InvalidMeld
from ..tiles import COLOURS, JOKER, Tile
from .actions import AddToMeld, Group, Pick, SwapJoly
from .melds import HIGH_ONE, RUN, Meld, classify, extend, position_number
from .state import State

_T = TypeVar("_T")


def _distinct(items: Iterable[_T]) -> list[_T]:
    """Items without repeats, in first-seen order.  Never a set: iterating a set of tiles
    follows the process's hash seed, and candidates must come out in the same order in every
    process for seeded games and bots to replay exactly."""
    return list(dict.fromkeys(items))


def meld_candidates(tiles: Iterable[Tile], max_length: int = 5) -> list[Group]:
    """Every set, and every run up to ``max_length`` tiles, that ``tiles`` can form
    (with at most one Joly each)."""
    counts = Counter(tiles)
    jokers = counts.pop(JOKER, 0)
    groups: list[Group] = []
    by_number: dict[int, list[Tile]] = {}
    for tile in counts:
        by_number.setdefault(tile.number, []).append(tile)
    for same in by_number.values():
        for size in (3, 4):
            for combo in combinations(same, size):
                groups.append(Group(combo))
        if jokers:
            for size in (2, 3):
                for combo in combinations(same, size):
                    groups.append(Group((*combo, JOKER)))
    for colour in COLOURS:
        for start in range(1, HIGH_ONE - 1):
            used_joker = 0
            run: list[Tile] = []
            as_: list[Tile | None] = []
            for position in range(start, min(HIGH_ONE, start + max_length - 1) + 1):
                tile = Tile(colour, position_number(position))
                if counts[tile] and not (position == HIGH_ONE and Tile(colour, 1) in run):
                    run.append(tile)
                    as_.append(None)
                elif jokers and not used_joker and len(run) >= 1:
                    used_joker = 1
                    run.append(JOKER)
                    as_.append(tile)
                else:
                    break
                if len(run) >= 3 and len(run) >= 2 * used_joker + used_joker:
                    designations = tuple(a for a in as_ if a is not None)
                    groups.append(Group(tuple(run), designations))
    return groups


def add_candidates(state: State, seat: int) -> list[AddToMeld]:
    rack = state.racks[seat]
    found: list[AddToMeld] = []
    for index, table_meld in enumerate(state.melds):
        meld = table_meld.meld
        for tile in _distinct(rack):
            if tile.is_joker:
                options = _joker_ends(meld)
                for stands in options:
                    found.append(AddToMeld(index, Group((JOKER,), (stands,))))
                continue
            if not _may_extend(meld, tile):
                continue
            try:
                extend(meld, [tile])
            except InvalidMeld:
                continue
            found.append(AddToMeld(index, Group((tile,))))
    return found


def _may_extend(meld: Meld, tile: Tile) -> bool:
    """A cheap test that rules out most tiles before ``extend`` judges them."""
    if meld.kind == RUN:
        if tile.colour != meld.colour:
            return False
        end = meld.start + len(meld.tiles)
        return tile.number in (
            position_number(meld.start - 1),
            position_number(end) if end <= HIGH_ONE else -1,
        )
    return (tile.number == meld.number and tile not in meld.stands_for) or (
        tile.number == meld.number and meld.joker_count > 0
    )


def _may_meld(tiles: tuple[Tile, ...]) -> bool:
    """Three numbered tiles that could be a set or run (a cheap filter before ``classify``)."""
    real = [t for t in tiles if not t.is_joker]
    if len({t.number for t in real}) == 1:
        return len({t.colour for t in real}) == len(real)
    if len({t.colour for t in real}) != 1:
        return False
    numbers = sorted(t.number for t in real)
    return numbers[-1] - numbers[0] <= 2 or (numbers[0] == 1 and numbers[-1] >= 12)


def _joker_ends(meld: Meld) -> list[Tile | None]:
    if meld.kind != RUN:
        return [None] if len(meld.tiles) == 3 and meld.joker_count == 0 else []
    ends: list[Tile | None] = []
    if meld.start > 1:
        ends.append(Tile(meld.colour, position_number(meld.start - 1)))
    end = meld.start + len(meld.tiles)
    if end <= HIGH_ONE:
        ends.append(Tile(meld.colour, position_number(end)))
    return ends


def pick_candidates(state: State, seat: int) -> list[Pick]:
    rack = state.racks[seat]
    found: list[Pick] = []
    pairs = _distinct(combinations(sorted(rack), 2))
    for index in range(1, len(state.discards)):
        row_tile = state.discards[index]
        for pair in pairs:
            if not _may_meld((row_tile, *pair)):
                continue
            try:
                classify([row_tile, *pair])
            except InvalidMeld:
                continue
            found.append(Pick(index, Group((row_tile, *pair))))
    return found


def swap_candidates(state: State, seat: int) -> list[SwapJoly]:
    rack = state.racks[seat]
    found: list[SwapJoly] = []
    for index, table_meld in enumerate(state.melds):
        meld = table_meld.meld
        if not meld.joker_count:
            continue
        replacements: list[tuple[Tile, ...]]
        if meld.kind == RUN:
            replacements = [
                (s,) for t, s in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker
            ]
        else:
            present = {t for t in meld.tiles if not t.is_joker}
            replacements = [
                tuple(Tile(c, meld.number) for c in COLOURS if Tile(c, meld.number) not in present)
            ]
        for replacement in replacements:
            left = list(rack)
            try:
                for tile in replacement:
                    left.remove(tile)
            except ValueError:
                continue
            for pair in _distinct(combinations(sorted(left), 2)):
                try:
                    classify([JOKER, *pair])
                except InvalidMeld:
                    continue
                found.append(SwapJoly(index, replacement, Group((JOKER, *pair))))
    return found
