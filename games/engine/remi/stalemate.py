"""Whether a tile can still ever be laid: the test that ends a game with no winner.

The game is stuck when no tile off the table (the wall, the discard row after its first tile,
any rack) can ever be laid, whoever ends up holding it.  Nothing laid means the table never
changes, so once stuck a game stays stuck; the test runs when the wall would be rebuilt.

The test is certain in one direction: it answers "stuck" only when no sequence of draws,
discards and pickups could bring a layable tile to a rack that may lay it.  Any player who
has melded may lay any meld, addition or swap; before anyone has melded nearly every tile is
off the table, so a first meld is always possible then.

The exposed tile may only be taken to go out, so it counts only for a player who could go
out with it: their whole rack (of the size it has, or larger for a player who may take
discards) laid together with it in that one turn, but for the final discard.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Iterator

from ..errors import InvalidMeld
from ..tiles import COLOURS, JOKER, Tile
from .melds import HIGH_ONE, RUN, Meld, classify, extend, free_joker, position_number
from .state import State


def live_tiles(state: State) -> Counter[Tile]:
    """Tiles that may still reach a rack: the wall, the row but its first tile, the racks."""
    live: Counter[Tile] = Counter(state.wall)
    live.update(state.discards[1:])
    for rack in state.racks:
        live.update(rack)
    return live


def can_still_lay(state: State) -> bool:
    live = live_tiles(state)
    table = [m.meld for m in state.melds]
    if _layable(live, table):
        return True
    return state.exposed is not None and _out_with_exposed(state, state.exposed, live, table)


# --- anything layable from the live tiles alone --------------------------------------------


def _layable(live: Counter[Tile], table: list[Meld]) -> bool:
    kinds = [t for t, n in live.items() if n > 0]
    jolys = live[JOKER]
    for meld in table:
        for tile in kinds:
            if _fits(meld, [tile]):
                return True
    if _three_meld(live, jolys):
        return True
    if jolys:
        # A run that holds as many Jolys as it may takes one more only with a tile beyond it.
        for meld in table:
            if meld.kind == RUN and any(
                _fits(meld, [JOKER, t]) for t in kinds if t.colour == meld.colour
            ):
                return True
    for meld in table:
        for replacement in _replacements(meld):
            needed = Counter(replacement)
            # The freed Joly is melded at once with two rack tiles.
            if not needed - live and _three_meld(live - needed, 1):
                return True
    return False


def _fits(meld: Meld, added: list[Tile]) -> bool:
    try:
        extend(meld, added)
    except InvalidMeld:
        return False
    return True


def _run_windows() -> Iterator[tuple[int, ...]]:
    """Three consecutive run positions, the high 1 (position 14) included."""
    for start in range(1, HIGH_ONE - 1):
        yield tuple(range(start, start + 3))


def _three_meld(live: Counter[Tile], jolys: int) -> bool:
    """Three live tiles (at most one Joly) that make a set or a run.  Every legal meld holds
    such three, so this is "some new meld can be made"."""
    need = 3 if jolys == 0 else 2
    for number in range(1, 14):
        if sum(live[Tile(c, number)] > 0 for c in COLOURS) >= need:
            return True
    for colour in COLOURS:
        for window in _run_windows():
            if sum(live[Tile(colour, position_number(p))] > 0 for p in window) >= need:
                return True
    return False


def _replacements(meld: Meld) -> Iterable[tuple[Tile, ...]]:
    """The tiles that would free one of the meld's Jolys."""
    if not meld.joker_count:
        return []
    if meld.kind == RUN:
        return [(s,) for t, s in zip(meld.tiles, meld.stands_for, strict=True) if t.is_joker]
    present = {t for t in meld.tiles if not t.is_joker}
    return [tuple(Tile(c, meld.number) for c in COLOURS if Tile(c, meld.number) not in present)]


# --- going out with the exposed tile --------------------------------------------------------


def _out_with_exposed(state: State, exposed: Tile, live: Counter[Tile], table: list[Meld]) -> bool:
    """Nothing is layable without the exposed tile, so a player who takes it lays one meld
    that holds it (or a swap it starts) and grows that meld tile by tile; they go out when
    that uses every tile of their rack but the discard."""
    outcomes = _grown(_seeds(exposed, live, table), live)
    rules = state.rules
    for seat, rack in enumerate(state.racks):
        size = len(rack)
        melded = state.melded_on[seat] is not None
        for meld, laid, new in outcomes:
            if melded:
                # Taking discards makes a rack larger, never smaller (not at two tiles or less).
                if laid == size - 1 or (size >= 3 and laid >= size - 1):
                    return True
            elif (
                new
                and laid == size - 1
                and meld.points >= rules.first_meld_minimum
                and (meld.kind == RUN or not rules.first_meld_needs_run)
            ):
                return True
    return False


Seed = tuple[Meld, Counter[Tile], bool]  # the meld holding the exposed tile, tiles used, new


def _seeds(exposed: Tile, live: Counter[Tile], table: list[Meld]) -> list[Seed]:
    seeds: list[Seed] = []
    for meld in table:
        with contextlib.suppress(InvalidMeld):
            seeds.append((extend(meld, [exposed]), Counter(), False))
    partners = [
        t
        for t, n in live.items()
        if n > 0 and (t.is_joker or t.colour == exposed.colour or t.number == exposed.number)
    ]
    for i, first in enumerate(partners):
        for second in partners[i:]:
            used = Counter([first, second])
            if used - live:
                continue
            with contextlib.suppress(InvalidMeld):
                seeds.append((classify([exposed, first, second]), used, True))
    for meld in table:
        for replacement in _replacements(meld):
            if exposed not in replacement:
                continue
            others = Counter(replacement) - Counter([exposed])
            if others - live:
                continue
            try:
                free_joker(meld, replacement)
            except InvalidMeld:
                continue
            seeds.extend(_joly_melds(live - others, others))
        # Or a live tile frees the Joly, which is melded with the exposed tile and one more.
        for replacement in _replacements(meld):
            needed = Counter(replacement)
            if needed - live:
                continue
            for partner in [t for t, n in (live - needed).items() if n > 0]:
                try:
                    freed = classify([JOKER, exposed, partner])
                except InvalidMeld:
                    continue
                seeds.append((freed, needed + Counter([partner]), False))
    return seeds


def _joly_melds(live: Counter[Tile], used: Counter[Tile]) -> Iterator[Seed]:
    """The freed Joly melded with two live tiles (not the exposed one: a swap that uses it as
    the replacement)."""
    kinds = sorted(t for t, n in live.items() if n > 0 and not t.is_joker)
    for i, first in enumerate(kinds):
        for second in kinds[i:]:
            pair = Counter([first, second])
            if pair - live:
                continue
            try:
                meld = classify([JOKER, first, second])
            except InvalidMeld:
                continue
            yield meld, used + pair, False


def _grown(seeds: list[Seed], live: Counter[Tile]) -> list[tuple[Meld, int, bool]]:
    """Every meld a seed can grow into one live tile at a time, with how many rack tiles it
    took (the exposed tile is not one)."""
    found: list[tuple[Meld, int, bool]] = []
    seen: set[tuple[tuple[Tile, ...], int, bool]] = set()
    stack = list(seeds)
    while stack:
        meld, used, new = stack.pop()
        key = (meld.tiles, sum(used.values()), new)
        if key in seen:
            continue
        seen.add(key)
        found.append((meld, sum(used.values()), new))
        for tile, count in live.items():
            if count > used[tile]:
                try:
                    grown = extend(meld, [tile])
                except InvalidMeld:
                    continue
                stack.append((grown, used + Counter([tile]), new))
    return found
