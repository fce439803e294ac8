"""Bot players.  A bot sees exactly what its seat's ``player_view`` shows, nothing more.

* ``easy``   — plays the first new melds it finds (enough for the first melds, then one a
  turn) and now and then lays one tile on the table; once in a while (``EASY_REARRANGES``)
  it tries a short rearranging search instead.
* ``normal`` — greedy: the new melds that use the most rack tiles, then every tile it can lay
  on the ends of runs and into sets.
* ``hard``   — rearranges: the exact solver when it is installed, otherwise its own search
  over the table's melds and the rack together (within a node budget), keeping whichever of
  that and the greedy play places more.

Bots never move a joker that is already on the table (so no joker restriction can catch them)
and write every joker's reading, so the table they leave is read exactly as they meant it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..tiles import JOKER, Tile, parse_tiles, remove_tiles, sort_key
from .actions import Action, Draw, Group, Play
from .arrangement import judge
from .melds import HIGHEST, LOWEST, MAX_SET, RUN, SET, Meld, MeldFault, classify
from .rules import Rules
from .search import best_arrangement, melds_with
from .state import meld_from_text

EASY = "easy"
NORMAL = "normal"
HARD = "hard"
LEVELS = (EASY, NORMAL, HARD)

HARD_BUDGET = 5_000
EASY_REARRANGES = 0.1  # how often the easy bot looks for a rearrangement
EASY_BUDGET = 200


def table_from_view(view: dict[str, Any]) -> list[Meld]:
    return [meld_from_text(f"{m['kind']} {m['notation']}") for m in view["table"]]


def choose(view: dict[str, Any], level: str, rng: random.Random) -> Action:
    """One action for the seat whose ``view`` this is; it must be that seat's turn."""
    seat = view["seat"]
    if seat is None or view["result"] is not None or view["turn"] != seat:
        raise ValueError("the bot's seat is not to move")
    rules = Rules.from_dict(view["rules"])
    rack = parse_tiles(view["rack"])
    return plan_turn(table_from_view(view), rack, view["melded"][seat], rules, level, rng)


def plan_turn(
    table: list[Meld],
    rack: list[Tile],
    melded: bool,
    rules: Rules,
    level: str,
    rng: random.Random,
    *,
    budget: int = HARD_BUDGET,
) -> Action:
    """The bot's move from what its seat knows: the table, its rack, whether it has made its
    first melds.  ``budget`` bounds the searches of the normal and hard bots (playouts use a
    small one)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    planner: dict[str, Callable[..., list[Meld] | None]] = {
        EASY: _easy,
        NORMAL: _normal,
        HARD: _hard,
    }
    new_table = planner[level](table, rack, melded, rules, rng, budget)
    if new_table is None:
        return Draw()
    return as_play(new_table)


def as_play(melds: Sequence[Meld]) -> Play:
    return Play(tuple(Group.of(m.notation()) for m in melds))


# --- the levels ------------------------------------------------------------------------------


def _easy(
    table: list[Meld],
    rack: list[Tile],
    melded: bool,
    rules: Rules,
    rng: random.Random,
    budget: int = HARD_BUDGET,
) -> list[Meld] | None:
    del budget
    if melded and rng.random() < EASY_REARRANGES:
        rearranged = _rearranged(table, rack, EASY_BUDGET)
        if rearranged is not None:
            return rearranged
    new, left = _first_found(rack)
    if not melded:
        if not new or sum(m.points for m in new) < rules.first_meld_minimum:
            return None
        return [*table, *new]
    if len(new) > 1:
        new = new[:1]
        used = Counter(t for m in new for t in m.tiles)
        left = sorted((Counter(rack) - used).elements(), key=sort_key)
    result = [*table, *new]
    if rng.random() < 0.3:
        result, left = lay_off(result, left, limit=1)
    return result if len(left) < len(rack) else None


def _normal(
    table: list[Meld],
    rack: list[Tile],
    melded: bool,
    rules: Rules,
    rng: random.Random,
    budget: int = HARD_BUDGET,
) -> list[Meld] | None:
    del rng
    if not melded:
        return _first_melds(table, rack, rules, budget=budget)
    found = best_arrangement(Counter(), Counter(rack), budget=budget)
    new = list(found.melds) if found else []
    left = _left_over(rack, new)
    result, left = lay_off([*table, *new], left)
    return result if len(left) < len(rack) else None


def _hard(
    table: list[Meld],
    rack: list[Tile],
    melded: bool,
    rules: Rules,
    rng: random.Random,
    budget: int = HARD_BUDGET,
) -> list[Meld] | None:
    solved = _from_solver(table, rack, melded, rules)
    if solved is not None:
        return solved
    return searched_table(table, rack, melded, rules, budget)


def searched_table(
    table: list[Meld], rack: list[Tile], melded: bool, rules: Rules, budget: int = HARD_BUDGET
) -> list[Meld] | None:
    """The hard bot's move without the exact solver: searches bounded by ``budget`` states
    (the review's fallback when the solver runs out of time)."""
    rng = random.Random(0)  # the normal level draws nothing from it
    if not melded:
        return _first_melds(table, rack, rules, prefer_tiles=True, budget=budget)
    greedy = _normal(table, rack, melded, rules, rng, budget)
    searched = _rearranged(table, rack, budget)
    if searched is None:
        return greedy
    if greedy is None or _tiles_on(searched) > _tiles_on(greedy):
        return searched
    return greedy


def _rearranged(table: list[Meld], rack: list[Tile], budget: int) -> list[Meld] | None:
    """The table's melds and the rack searched together, then lay-offs; None when it places
    nothing.  Melds holding a joker stay as they are (they may still grow), so no joker
    restriction applies; the rest of the table is rearranged freely."""
    fixed = [m for m in table if m.joker_count]
    loose = Counter(t for m in table if not m.joker_count for t in m.tiles)
    found = best_arrangement(loose, Counter(rack), budget=budget)
    if found is None:
        return None
    new = list(found.melds)
    placed = Counter(t for m in new for t in m.tiles) - loose
    left = sorted((Counter(rack) - placed).elements(), key=sort_key)
    searched, left = lay_off([*fixed, *new], left)
    return None if len(left) == len(rack) else searched


def _from_solver(
    table: list[Meld], rack: list[Tile], melded: bool, rules: Rules
) -> list[Meld] | None:
    """The exact solver's plan (``games.engine.rummikub.solver``, written apart from this
    module), when it is installed and the engine accepts its plan without a penalty: the
    solver knows the matching rules but not the locked melds nor the own-meld rule, so every
    plan is judged before it is played."""
    try:
        from . import solver
    except ImportError:
        return None
    pinned = [_replacements(m, reading) for m in table for reading in m.jokers_as]
    plan = solver.solve(
        [m.tiles for m in table], rack, rules, "tiles", initial=not melded, pinned=pinned
    )
    if plan is None or not plan.placed:
        return None
    play = Play(
        tuple(
            Group(tuple(tiles), tuple(readings))
            for tiles, readings in zip(plan.melds, plan.jokers_as, strict=True)
        )
    )
    judgement = judge(table, rack, melded, play, rules)
    return judgement.table if judgement.ok else None


def _replacements(meld: Meld, reading: Tile) -> list[Tile]:
    """The tiles that free a joker: the one it stands for in a run, any missing colour in a
    set."""
    if meld.kind == RUN:
        return [reading]
    return [Tile(colour, meld.number) for colour in meld.missing_colours()]


# --- building blocks -------------------------------------------------------------------------


def _first_melds(
    table: list[Meld],
    rack: list[Tile],
    rules: Rules,
    *,
    prefer_tiles: bool = False,
    budget: int = HARD_BUDGET,
) -> list[Meld] | None:
    """New melds from the rack alone worth the first-meld minimum, or None."""
    tries = [False, True] if prefer_tiles else [True]
    for points_first in tries:
        found = best_arrangement(Counter(), Counter(rack), points_first=points_first, budget=budget)
        if found and found.melds and found.points >= rules.first_meld_minimum:
            return [*table, *found.melds]
    return None


def _first_found(rack: list[Tile]) -> tuple[list[Meld], list[Tile]]:
    """Melds taken greedily in rack order: the first meld each lowest tile can start."""
    pool = Counter(rack)
    melds: list[Meld] = []
    for tile in sorted(rack, key=sort_key):
        if tile.is_joker or not pool[tile]:
            continue
        meld = next(iter(melds_with(tile, pool)), None)
        if meld is not None:
            pool -= Counter(meld.tiles)
            melds.append(meld)
    return melds, sorted(pool.elements(), key=sort_key)


def _left_over(rack: list[Tile], melds: list[Meld]) -> list[Tile]:
    used = Counter(t for m in melds for t in m.tiles)
    return sorted((Counter(rack) - used).elements(), key=sort_key)


def _tiles_on(melds: list[Meld]) -> int:
    return sum(len(m.tiles) for m in melds)


def lay_off(
    table: list[Meld], rack: list[Tile], limit: int | None = None
) -> tuple[list[Meld], list[Tile]]:
    """Lay rack tiles on the ends of runs and into sets while any fits (at most ``limit``);
    jokers only once nothing else is left, at a run's end."""
    table, rack = list(table), list(rack)
    laid = 0
    while limit is None or laid < limit:
        # Only melds that a rack tile can grow are tried (a bot calls this every turn).
        wanted = {t for m in table for t in _growers(m)}
        numbered = [t for t in rack if not t.is_joker]
        candidates = [t for t in numbered if t in wanted] or ([] if numbered else rack[:1])
        step = next(
            (
                (index, grown, tile)
                for tile in sorted(set(candidates), key=sort_key)
                for index, meld in enumerate(table)
                if (grown := extend(meld, tile)) is not None
            ),
            None,
        )
        if step is None:
            break
        index, grown, tile = step
        table[index] = grown
        rest = remove_tiles(rack, [tile])
        assert rest is not None
        rack = rest
        laid += 1
    return table, rack


def _growers(meld: Meld) -> list[Tile]:
    """The numbered tiles that could be added to ``meld``."""
    if meld.kind == RUN:
        first, last = meld.stands_for[0].number, meld.stands_for[-1].number
        return [Tile(meld.colour, n) for n in (first - 1, last + 1) if LOWEST <= n <= HIGHEST]
    if len(meld.tiles) >= MAX_SET:
        return []
    return [Tile(c, meld.number) for c in meld.missing_colours()]


def extend(meld: Meld, tile: Tile) -> Meld | None:
    """``meld`` with ``tile`` added without moving any joker's reading, or None."""
    if meld.kind == RUN:
        first, last = meld.stands_for[0], meld.stands_for[-1]
        if tile.is_joker:
            if last.number < HIGHEST:
                after = Tile(meld.colour, last.number + 1)
                return Meld(RUN, (*meld.tiles, JOKER), (*meld.stands_for, after))
            if first.number > LOWEST:
                before = Tile(meld.colour, first.number - 1)
                return Meld(RUN, (JOKER, *meld.tiles), (before, *meld.stands_for))
            return None
        if tile.colour != meld.colour:
            return None
        if tile.number == last.number + 1:
            return Meld(RUN, (*meld.tiles, tile), (*meld.stands_for, tile))
        if tile.number == first.number - 1:
            return Meld(RUN, (tile, *meld.tiles), (tile, *meld.stands_for))
        return None
    if tile.is_joker or len(meld.tiles) >= MAX_SET or tile.number != meld.number:
        return None
    if tile.colour not in meld.missing_colours():
        return None
    try:
        grown = classify([*meld.tiles, tile])
    except MeldFault:
        return None
    return grown if grown.kind == SET else None
