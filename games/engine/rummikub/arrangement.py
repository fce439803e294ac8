"""Judging a ``play``: the whole table a player leaves, against the table and rack they had.

Two kinds of trouble are told apart.  An arrangement that could not have been made with the
tiles at hand (a tile not on the rack, a table tile gone, nothing placed) is *refused*: the
action raises and nothing changes.  An arrangement that could have been laid out but breaks a
rule (a meld left invalid, first melds below the minimum, the table touched before them, a
joker restriction) is a *fault*: the turn is taken back and the player draws the penalty
tiles, as document 004 says.  :func:`judge` returns the faults so the site can also warn a
player before they submit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from ..errors import IllegalAction
from ..tiles import Tile, sort_key
from .actions import Group, Play
from .melds import RUN, SET, Meld, MeldFault, preference, readings
from .rules import JOKER_MATCHING_FROM_RACK, Rules

Fault = dict[str, Any]


@dataclass(slots=True)
class Judgement:
    """The table the play leaves (melds, in the player's order), the tiles it takes from the
    rack, the value of the first melds when this play makes them, and every fault found."""

    table: list[Meld]
    placed: list[Tile]
    first_melds: int | None = None
    faults: list[Fault] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults


def judge(
    table: Sequence[Meld], rack: Sequence[Tile], melded: bool, play: Play, rules: Rules
) -> Judgement:
    """Check ``play`` against the turn-start ``table`` and ``rack``; ``melded``: the player
    has made their first melds in an earlier turn.  Raises :class:`IllegalAction` for an
    impossible arrangement, otherwise returns a :class:`Judgement`."""
    placed = _placed_tiles(table, rack, play)
    new_table: list[Meld] = []
    faults: list[Fault] = []
    old_readings = Counter(s for m in table for s in m.jokers_as)
    unchanged = {m.tiles: m for m in table}
    for index, group in enumerate(play.melds):
        try:
            meld = _read(group, rules, old_readings, unchanged)
        except MeldFault as fault:
            faults.append(
                {"code": "invalid-meld", "meld": index, "reason": fault.code, **fault.params}
            )
            continue
        if meld.joker_count:
            old_readings -= Counter(meld.jokers_as)
        new_table.append(meld)
    judgement = Judgement(new_table, placed, None, faults)
    if faults:
        return judgement
    if not melded:
        _check_first_melds(table, judgement, rules)
    else:
        faults.extend(joker_faults(table, new_table, placed, rules))
    return judgement


def _placed_tiles(table: Sequence[Meld], rack: Sequence[Tile], play: Play) -> list[Tile]:
    after = play.tiles()
    before: Counter[Tile] = Counter()
    for meld in table:
        before.update(meld.tiles)
    # Each check scans the counts before building the tile list it reports: a play is judged
    # on every turn of every game, and most plays pass them.
    if any(after[t] < n for t, n in before.items()):
        raise IllegalAction("table-tile-missing", tiles=_names(before - after))
    placed = after - before
    have = Counter(rack)
    if any(have[t] < n for t, n in placed.items()):
        raise IllegalAction("not-on-rack", tiles=_names(placed - have))
    if not placed:
        raise IllegalAction("nothing-placed")
    return sorted(placed.elements(), key=sort_key)


def _names(tiles: Counter[Tile]) -> list[str]:
    return [str(t) for t in sorted(tiles.elements(), key=sort_key)]


def _read(
    group: Group, rules: Rules, old_readings: Counter[Tile], unchanged: dict[tuple[Tile, ...], Meld]
) -> Meld:
    """The meld a group makes.  A joker written without a reading keeps the one it had at
    the start of the turn when that still fits, so a player need not repeat readings."""
    # A meld left as it was (tile for tile, readings as they were or unwritten) keeps its
    # reading: the common case, and no need to read it again.
    old = unchanged.get(group.tiles)
    if old is not None and (not group.jokers_as or group.jokers_as == old.jokers_as):
        return old
    options = readings(group.tiles, rules, group.designations())
    if len(options) == 1:
        return options[0]
    best = max(options, key=preference)

    def kept(meld: Meld) -> int:
        return sum((Counter(meld.jokers_as) & old_readings).values())

    return max(options, key=lambda m: (kept(m), m == best, m.points, m.kind == RUN))


def _check_first_melds(table: Sequence[Meld], judgement: Judgement, rules: Rules) -> None:
    """Before their first melds a player may only add new melds made from the rack."""
    remaining = list(judgement.table)
    for old in table:
        twin = next((m for m in remaining if _same_meld(m, old)), None)
        if twin is None:
            judgement.faults.append({"code": "table-before-first-meld"})
            return
        remaining.remove(twin)
    points = sum(m.points for m in remaining)
    if points < rules.first_meld_minimum:
        judgement.faults.append(
            {"code": "first-meld-too-low", "points": points, "needed": rules.first_meld_minimum}
        )
        return
    judgement.first_melds = points


def _same_meld(a: Meld, b: Meld) -> bool:
    return a.kind == b.kind and Counter(a.tiles) == Counter(b.tiles) and _same_jokers(a, b)


def _same_jokers(a: Meld, b: Meld) -> bool:
    # Any missing colour serves a set's joker equally, so only a run's readings must agree.
    return a.kind == SET or Counter(a.jokers_as) == Counter(b.jokers_as)


# --- jokers already on the table --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Joker:
    meld: int
    reading: Tile


def _jokers(table: Sequence[Meld]) -> list[_Joker]:
    return [_Joker(i, s) for i, m in enumerate(table) for s in m.jokers_as]


def joker_faults(
    table: Sequence[Meld], new_table: Sequence[Meld], placed: Sequence[Tile], rules: Rules
) -> list[Fault]:
    """The joker restrictions.  Jokers look alike, so an old joker may be any new one: the
    pairing that breaks the fewest rules is the one the player is judged by."""
    old = _jokers(table)
    if not old:
        return []
    new = _jokers(new_table)
    best: list[Fault] | None = None
    for pairing in permutations(range(len(new)), len(old)):
        faults = _faults_for(table, new_table, placed, rules, old, new, pairing)
        if best is None or len(faults) < len(best):
            best = faults
        if not best:
            break
    return best or []


def _kept(table: Sequence[Meld], new_table: Sequence[Meld], old: _Joker, new: _Joker) -> bool:
    before, after = table[old.meld], new_table[new.meld]
    if before.kind == SET:
        return after.kind == SET and after.number == before.number
    return after.kind == RUN and new.reading == old.reading


def _faults_for(
    table: Sequence[Meld],
    new_table: Sequence[Meld],
    placed: Sequence[Tile],
    rules: Rules,
    old: list[_Joker],
    new: list[_Joker],
    pairing: tuple[int, ...],
) -> list[Fault]:
    faults: list[Fault] = []
    moved = [i for i, j in enumerate(pairing) if not _kept(table, new_table, old[i], new[j])]
    # A moved joker counts as replaced when a matching tile is there for it (from the rack,
    # under matching-from-rack); under the lenient rule it may move unreplaced, but only a
    # replaced joker unlocks its meld.
    from_rack = rules.joker_replacement == JOKER_MATCHING_FROM_RACK
    pool = Counter(placed) if from_rack else _real_tiles(new_table)
    replaced: set[int] = set()
    # A run's joker needs one exact tile, a set's any missing colour: serve runs first.
    for i in sorted(moved, key=lambda i: table[old[i].meld].kind != RUN):
        match = _matching_tile(table[old[i].meld], old[i].reading, pool)
        if match is not None:
            pool[match] -= 1
            replaced.add(i)
        elif rules.jokers_need_matching:
            faults.append(
                {"code": "joker-not-replaced", "joker": str(old[i].reading), "from_rack": from_rack}
            )
    if rules.freed_joker_own_meld:
        faults.extend(_own_meld_faults(new_table, placed, old, new, pairing, moved))
    if rules.joker_locks_meld:
        faults.extend(_lock_faults(table, new_table, old, moved, replaced))
    return faults


def _real_tiles(melds: Sequence[Meld]) -> Counter[Tile]:
    return Counter(t for m in melds for t in m.tiles if not t.is_joker)


def _matching_tile(meld: Meld, reading: Tile, pool: Counter[Tile]) -> Tile | None:
    if meld.kind == RUN:
        return reading if pool[reading] > 0 else None
    for colour in meld.missing_colours():
        tile = Tile(colour, meld.number)
        if pool[tile] > 0:
            return tile
    return None


def _own_meld_faults(
    new_table: Sequence[Meld],
    placed: Sequence[Tile],
    old: list[_Joker],
    new: list[_Joker],
    pairing: tuple[int, ...],
    moved: list[int],
) -> list[Fault]:
    """A freed joker may only go into a new meld of the player's own tiles: every other tile
    of its meld comes from the rack (no old table joker in it either)."""
    faults: list[Fault] = []
    own = Counter(placed)
    table_jokers_in = Counter(new[j].meld for j in pairing)
    for i in moved:
        index = new[pairing[i]].meld
        meld = new_table[index]
        reals = Counter(t for t in meld.tiles if not t.is_joker)
        if reals - own or table_jokers_in[index] > 1:
            faults.append({"code": "freed-joker-own-meld", "joker": str(old[i].reading)})
        else:
            own -= reals
    return faults


def _lock_faults(
    table: Sequence[Meld],
    new_table: Sequence[Meld],
    old: list[_Joker],
    moved: list[int],
    replaced: set[int],
) -> list[Fault]:
    """A meld holding a joker that was not replaced keeps every numbered tile: it may grow
    but not lose any, and a joker still in it keeps its reading."""
    faults: list[Fault] = []
    held: dict[int, Counter[Tile]] = {}
    for i, joker in enumerate(old):
        if i in replaced:
            continue
        kept = held.setdefault(joker.meld, Counter())
        if i not in moved:
            kept[joker.reading] += 1
    for index, readings_kept in sorted(held.items()):
        before = table[index]
        reals = Counter(t for t in before.tiles if not t.is_joker)
        if not any(_still_holds(m, before, reals, readings_kept) for m in new_table):
            faults.append({"code": "joker-meld-locked", "meld": before.notation()})
    return faults


def _still_holds(meld: Meld, before: Meld, reals: Counter[Tile], kept: Counter[Tile]) -> bool:
    if meld.kind != before.kind or reals - Counter(meld.tiles):
        return False
    if meld.kind == SET:
        return meld.joker_count >= kept.total()
    return not kept - Counter(meld.jokers_as)
