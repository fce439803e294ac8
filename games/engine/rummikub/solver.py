"""The exact Rummikub solver: the best move from a rack onto a table that may be rearranged.

``solve(table, rack, rules, objective="tiles")`` returns a :class:`Plan` (the whole table
after the move and the rack tiles it uses) or ``None`` when no rack tile can be placed.

* ``objective="tiles"`` places the most rack tiles; among those, the highest total value
  (numbers at face value, a joker at ``rules.joker_value``).  ``"points"`` puts the total
  first and the count second.
* Every table tile stays on the table, in any arrangement (the lenient joker rule, ``free``).
* ``initial=True`` is the first meld: the table is left as it is and only new melds of rack
  tiles are laid, whose total (a joker counting as the tile it stands for) reaches
  ``rules.first_meld_minimum``; ``None`` when no such melds exist.
* The stricter joker rules (``matching``, ``matching-from-rack``) need to know what each
  table joker stands for: ``pinned`` lists, for every joker on the table (in the order they
  appear, meld by meld), the tiles that can replace it (one tile for a joker in a run, the
  missing colours for a joker in a set).  A pinned joker either keeps standing for one of
  those tiles, or is freed when a matching real tile is on the table after the move (for
  ``matching-from-rack`` that tile must come from the rack; a tile can free one joker).  A
  freed joker may go anywhere.
  This reads the rules on the table as it ends up: a kept joker may move to another meld
  where it stands for the same tile.
* ``joker_locks_meld`` (it needs ``pinned`` too, and frees a joker as ``matching`` does
  under the ``free`` rule): a meld whose joker is kept is locked, its tiles stay together;
  a locked run may grow at either end (joining other runs), a locked set of three by a tile
  of a missing colour or a joker; a tile held in a locked meld cannot free a joker.  Not
  searched: a meld with two jokers of which one is freed and the other kept.
* ``freed_joker_own_meld`` (it needs ``pinned`` too): a freed joker must end up in a meld
  whose other tiles all come from the rack (the tile that took its place does not count;
  both freed jokers, or a rack joker, may share it).  Every such meld is tried in turn, so
  with two freed jokers and a big rack this is slow.

The search is a dynamic programme over the numbers (``solver_dp``); it is exact and its
ties are broken by a fixed order, so the same input always gives the same plan.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product

from games.engine.core.budget import Stop, never
from games.engine.tiles import COLOURS, JOKER, Tile, sort_key

from .rules import JOKER_FREE, JOKER_MATCHING_FROM_RACK, Rules
from .solver_dp import Solution, run
from .solver_sets import split_sets

RUN = "run"
SET = "set"
OBJECTIVES = ("tiles", "points")

# Scores pack two goals in one integer: the first goal times _BIG plus the second.  Neither
# a count of tiles nor a total of values on a 106-tile table reaches it.
_BIG = 1 << 13

# Every numbered tile by (colour index, number), made once: a plan names many.
_TILES = {(c, n): Tile(colour, n) for c, colour in enumerate(COLOURS) for n in range(1, 14)}


@dataclass(frozen=True, slots=True)
class Plan:
    """A move: ``melds`` is the whole table afterwards (runs in number order); for each meld,
    ``jokers_as`` holds the tiles its jokers stand for, in the order the jokers appear, and
    ``kinds`` says ``"run"`` or ``"set"``.  ``placed`` are the rack tiles used; ``tiles`` and
    ``points`` their count and total value (a joker at ``rules.joker_value``)."""

    melds: tuple[tuple[Tile, ...], ...]
    jokers_as: tuple[tuple[Tile, ...], ...]
    kinds: tuple[str, ...]
    placed: tuple[Tile, ...]
    tiles: int
    points: int


def solve(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules,
    objective: str = "tiles",
    *,
    initial: bool = False,
    pinned: Sequence[Sequence[Tile]] | None = None,
    stop: Stop = never,
) -> Plan | None:
    """The best move (see the module's docstring), or ``None`` when nothing can be placed.
    ``stop`` (see ``core.budget``) is asked between the search's rounds; when it answers
    True the search raises ``OutOfTime``."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    jokers = sum(t.is_joker for meld in table for t in meld) + sum(t.is_joker for t in rack)
    if jokers > 2:
        raise ValueError("a Rummikub set has two jokers")
    if initial:
        return _first_meld(table, rack, rules, objective, stop)
    table_tiles = [t for meld in table for t in meld]
    strict = JOKER in table_tiles and (
        rules.joker_replacement != JOKER_FREE
        or rules.joker_locks_meld
        or rules.freed_joker_own_meld
    )
    if strict and (pinned is None or len(pinned) != table_tiles.count(JOKER)):
        raise ValueError("the joker rule needs every table joker's tiles in `pinned`")
    if not strict:
        return _best(table, rack, rules, objective, [], stop)
    best: Plan | None = None
    best_key: tuple[int, int] | None = None
    # Each pinned joker either keeps standing for one of its tiles or is freed by one.
    choices = [[(keep, tile) for tile in tiles for keep in (True, False)] for tiles in pinned or []]
    for choice in product(*choices):
        plan = _best(table, rack, rules, objective, list(choice), stop)
        if plan is not None:
            key = _goal(plan, objective)
            if best_key is None or key > best_key:
                best, best_key = plan, key
    return best


def _goal(plan: Plan, objective: str) -> tuple[int, int]:
    return (plan.tiles, plan.points) if objective == "tiles" else (plan.points, plan.tiles)


def _counts() -> list[list[int]]:
    return [[0] * 14 for _ in COLOURS]


def _weights(rules: Rules, objective: str) -> tuple[list[list[int]], int]:
    def weigh(value: int) -> int:
        return _BIG + value if objective == "tiles" else value * _BIG + 1

    return [[weigh(n) for n in range(14)] for _ in COLOURS], weigh(rules.joker_value)


Pair = tuple[Tile, Tile]  # a tile on the table and what it stands for
LockedRun = tuple[int, int, int, list[Pair]]  # colour index, low, high, pairs


def _best(
    melds: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules,
    objective: str,
    pins: list[tuple[bool, Tile]],
    stop: Stop = never,
) -> Plan | None:
    """The best plan with every table tile used.  ``pins`` go with the table's jokers in
    order: (keep, tile) makes the joker a fixed copy of ``tile`` (keep) or a free joker that
    needs a real ``tile`` to free it.  With ``joker_locks_meld`` a meld keeping its joker is
    locked: its tiles stay together (a run may grow at its ends, a set of 3 by a tile of a
    missing colour).  With ``freed_joker_own_meld`` each way for the freed jokers to start
    melds of rack tiles is tried."""
    table = _counts()
    spare = _counts()
    table_jokers = 0
    forced: list[Tile] = []
    kept: list[Tile] = []
    freeing: Counter[Tile] = Counter()
    runs: list[LockedRun] = []  # locked
    sets: list[list[Pair]] = []  # locked
    real = _counts()  # minus the kept jokers' copies, so table + real counts real tiles
    pin = iter(pins)
    for meld in melds:
        meld_pins = [next(pin) for t in meld if t.is_joker] if pins else []
        if rules.joker_locks_meld and any(keep for keep, _ in meld_pins):
            if not all(keep for keep, _ in meld_pins):
                return None  # one joker of a locked meld freed, another kept: not searched
            shape = _locked(meld, [tile for _, tile in meld_pins])
            if shape is None:
                return None
            if isinstance(shape, tuple):
                runs.append(shape)
            else:
                sets.append(shape)
            continue
        for t in meld:
            if not t.is_joker:
                table[COLOURS.index(t.colour)][t.number] += 1
        for keep, tile in meld_pins:
            if keep:
                # A kept joker is a copy of its tile for the search, but frees nothing.
                table[COLOURS.index(tile.colour)][tile.number] += 1
                real[COLOURS.index(tile.colour)][tile.number] -= 1
                kept.append(tile)
            else:
                table_jokers += 1
                freeing[tile] += 1
        if not pins:
            table_jokers += sum(t.is_joker for t in meld)
    for t in rack:
        if not t.is_joker:
            spare[COLOURS.index(t.colour)][t.number] += 1
    rack_jokers = sum(1 for t in rack if t.is_joker)
    from_rack = rules.joker_replacement == JOKER_MATCHING_FROM_RACK
    real = [
        [n + k for n, k in zip(row, less, strict=True)]
        for row, less in zip(table, real, strict=True)
    ]
    for tile, count in sorted(freeing.items()):
        # Each freed joker needs its own real matching tile on the table after the move;
        # the ones the table lacks (or all, when they must come from the rack) are forced
        # out of the rack.
        c = COLOURS.index(tile.colour)
        need = count if from_rack else count - real[c][tile.number]
        if need > spare[c][tile.number]:
            return None
        if need > 0:
            table[c][tile.number] += need
            spare[c][tile.number] -= need
            forced.extend([tile] * need)
    weight, joker_weight = _weights(rules, objective)
    best: Plan | None = None
    locks = tuple((c, low, high) for c, low, high, _ in runs)
    own = sum(freeing.values()) if rules.freed_joker_own_meld else 0
    growths = [_growths(s, table, spare, table_jokers + rack_jokers) for s in sets]
    for grown, mine in product(product(*growths), _own_melds(spare, own, rack_jokers)):
        # A locked set that grows takes its tile (or joker) off the table or out of the rack;
        # freed jokers that must start melds of rack tiles take theirs out of the rack.
        took: list[Tile] = []
        free_jokers, own_jokers = table_jokers - own, rack_jokers
        changes: list[tuple[list[list[int]], Tile]] = []
        for stand, source in grown:
            if stand is None:
                continue
            joker = source.endswith("joker")
            if joker and source.startswith("table"):
                free_jokers -= 1
            elif joker:
                own_jokers -= 1
            else:
                changes.append((table if source == "table" else spare, stand))
            if source.startswith("rack"):
                took.append(JOKER if joker else stand)
        for pairs, _ in mine:
            for tile, _ in pairs:
                if not tile.is_joker:
                    changes.append((spare, tile))
                    took.append(tile)
        # A joker in those melds beyond the freed ones is the rack's.
        from_hand = sum(t.is_joker for pairs, _ in mine for t, _ in pairs) - own
        own_jokers -= from_hand
        took += [JOKER] * from_hand
        for counts, tile in changes:
            counts[COLOURS.index(tile.colour)][tile.number] -= 1
        solution = None
        fits = all(min(row) >= 0 for counts in (table, spare) for row in counts)
        if fits and free_jokers >= 0 and own_jokers >= 0:
            solution, downwards = run(
                table, spare, free_jokers, own_jokers, weight, joker_weight, 0, locks, stop
            )
        for counts, tile in changes:
            counts[COLOURS.index(tile.colour)][tile.number] += 1
        if solution is None:
            continue
        fixed = [
            (
                [
                    *pairs,
                    *(
                        []
                        if stand is None
                        else [(JOKER if src.endswith("joker") else stand, stand)]
                    ),
                ],
                SET,
            )
            for pairs, (stand, src) in zip(sets, grown, strict=True)
        ]
        plan = _plan(
            solution, downwards, free_jokers, rules, kept, [*forced, *took], runs, [*fixed, *mine]
        )
        if plan.tiles and (best is None or _goal(plan, objective) > _goal(best, objective)):
            best = plan
    return best


def _own_melds(
    spare: list[list[int]], freed: int, rack_jokers: int
) -> list[list[tuple[list[Pair], str]]]:
    """The ways ``freed`` jokers can each start a meld of rack tiles (``spare``, and a rack
    joker): one meld with both, or one each; a single empty way when there are none."""
    if not freed:
        return [[]]
    jokers = min(2, freed + rack_jokers)
    by_count: dict[int, list[tuple[list[Pair], str]]] = {1: [], 2: []}
    for c, colour in enumerate(COLOURS):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                window = range(low, high + 1)
                gaps = {n for n in window if not spare[c][n]}
                if len(gaps) > jokers:
                    break
                for count in range(max(1, len(gaps)), jokers + 1):
                    for spots in combinations(window, count):
                        if gaps <= set(spots) and len(window) > count:
                            by_count[count].append(
                                (
                                    [
                                        (JOKER if n in spots else Tile(colour, n), Tile(colour, n))
                                        for n in window
                                    ],
                                    RUN,
                                )
                            )
    for n in range(1, 14):
        have = [c for c in range(len(COLOURS)) if spare[c][n]]
        for count in range(1, jokers + 1):
            for size in (3, 4):
                for colours in combinations(have, size - count):
                    if not colours:
                        continue
                    missing = [Tile(x, n) for i, x in enumerate(COLOURS) if i not in colours]
                    pairs = [(Tile(COLOURS[i], n),) * 2 for i in colours]
                    pairs += [(JOKER, m) for m in missing[:count]]
                    by_count[count].append((pairs, SET))
    if freed == 1:
        return [[m] for m in by_count[1] + by_count[2]]
    return [[m] for m in by_count[2]] + [
        [a, b] for a, b in combinations_with_replacement(by_count[1], 2)
    ]


def _locked(meld: Sequence[Tile], kept: list[Tile]) -> LockedRun | list[Pair] | None:
    """A locked meld's shape: a run's (colour index, low, high, pairs) or a set's pairs, its
    jokers read as the ``kept`` tiles; ``None`` when they do not make it a legal meld."""
    stand = iter(kept)
    pairs = [(t, next(stand)) if t.is_joker else (t, t) for t in meld]
    faces = [f for _, f in pairs]
    if len({f.number for f in faces}) == 1 and len({f.colour for f in faces}) == len(faces):
        return pairs
    pairs.sort(key=lambda p: p[1].number)
    faces = [f for _, f in pairs]
    colour = faces[0].colour
    numbers = [f.number for f in faces]
    if {f.colour for f in faces} != {colour} or numbers != list(range(numbers[0], numbers[-1] + 1)):
        return None
    return COLOURS.index(colour), numbers[0], numbers[-1], pairs


def _growths(
    pairs: list[Pair], table: list[list[int]], spare: list[list[int]], jokers: int
) -> list[tuple[Tile | None, str]]:
    """How a locked set may grow: not at all, or by one tile of a missing colour (what it
    is, and where it comes from: "table", "rack", "table joker", "rack joker")."""
    found: list[tuple[Tile | None, str]] = [(None, "")]
    if len(pairs) < 4:
        number = pairs[0][1].number
        have = {f.colour for _, f in pairs}
        missing = [c for c, colour in enumerate(COLOURS) if colour not in have]
        for c in missing:
            tile = Tile(COLOURS[c], number)
            if table[c][number]:
                found.append((tile, "table"))
            if spare[c][number]:
                found.append((tile, "rack"))
        if jokers:
            tile = Tile(COLOURS[missing[0]], number)
            found += [(tile, "table joker"), (tile, "rack joker")]
    return found


def _first_meld(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules,
    objective: str,
    stop: Stop = never,
) -> Plan | None:
    weight, joker_weight = _weights(rules, objective)
    spare = _counts()
    for t in rack:
        if not t.is_joker:
            spare[COLOURS.index(t.colour)][t.number] += 1
    rack_jokers = sum(1 for t in rack if t.is_joker)
    minimum = max(1, rules.first_meld_minimum)
    solution, downwards = run(
        _counts(), spare, 0, rack_jokers, weight, joker_weight, minimum, stop=stop
    )
    if solution is None:
        return None
    new = _plan(solution, downwards, 0, rules, [], [])
    if not new.tiles:
        return None
    old = [tuple(m) for m in table]
    readings = [read_meld(m) for m in old]
    return Plan(
        melds=(*old, *new.melds),
        jokers_as=(*(r[1] for r in readings), *new.jokers_as),
        kinds=(*(r[0] for r in readings), *new.kinds),
        placed=new.placed,
        tiles=new.tiles,
        points=new.points,
    )


def _plan(
    solution: Solution,
    downwards: bool,
    table_jokers: int,
    rules: Rules,
    kept: list[Tile],
    forced: list[Tile],
    locked_runs: Sequence[LockedRun] = (),
    extra: Sequence[tuple[list[Pair], str]] = (),
) -> Plan:
    """Lay out the melds the programme's steps describe (``downwards``: its numbers count
    down from 13, and its runs are read backwards).  ``forced`` rack tiles were moved to the
    table's counts (they free pinned jokers, or grow a locked set) and are placed tiles all
    the same.  Locked runs join the run the steps say they take in; ``extra`` melds (locked
    sets, freed jokers' own melds) stand as they are."""
    melds: list[list[Pair]] = []
    kinds: list[str] = []
    open_runs: list[list[list[Pair]]] = [[] for _ in COLOURS]
    placed: list[Tile] = list(forced)
    # Locked runs by where the walk meets them: (colour, first step) -> [(last step, pairs)].
    blocks: dict[tuple[int, int], list[tuple[int, list[Pair]]]] = {}
    for c, low, high, pairs in locked_runs:
        ordered = sorted(pairs, key=lambda p: p[1].number, reverse=downwards)
        first, last = (14 - high, 14 - low) if downwards else (low, high)
        blocks.setdefault((c, first), []).append((last, ordered))
    parked: list[tuple[int, int, list[Pair]]] = []
    for number in range(1, 14):
        to_sets: list[int] = []
        for c in range(len(COLOURS)):
            step = solution.steps[number, c]
            tile = _TILES[c, 14 - number if downwards else number]
            placed.extend([tile] * step.rack)
            to_sets.extend([c] * step.to_sets)
            runs = open_runs[c]
            taken = list(step.absorbed)
            for last, pairs in blocks.get((c, number), []):
                # Each locked run starting here takes in one open run the steps name, if any.
                host: list[Pair] = []
                if taken:
                    kind = taken.pop()
                    host = next(r for r in runs if min(len(r), 3) == kind)
                    runs = [r for r in runs if r is not host]
                host.extend(pairs)
                parked.append((c, last, host))
            if runs:
                short = [r for r in runs if len(r) < 3]
                long = [r for r in runs if len(r) >= 3]
            else:
                short = long = runs
            for ended in long[step.go_on :]:
                melds.append(ended[::-1] if downwards else ended)
                kinds.append(RUN)
            going = [*short, *long[: step.go_on], *([] for _ in range(step.start))]
            copies = [tile] * (step.real - step.to_sets) + [JOKER] * step.jokers
            for r, copy in zip(going, copies, strict=True):
                r.append((copy, tile))
            # A locked run that ends here is an open run of 3+ from now on.
            if parked:
                going += [host for pc, end, host in parked if pc == c and end == number]
            open_runs[c] = going
        split = split_sets(tuple(sorted(to_sets)), solution.set_jokers[number])
        assert split is not None  # the programme only keeps splittable tallies
        for colours, jokers in split:
            face = 14 - number if downwards else number
            missing = [Tile(x, face) for i, x in enumerate(COLOURS) if i not in colours]
            members = [(Tile(COLOURS[i], face),) * 2 for i in colours]
            melds.append([*members, *((JOKER, m) for m in missing[:jokers])])
            kinds.append(SET)
    for runs in open_runs:
        for r in runs:
            melds.append(r[::-1] if downwards else r)
            kinds.append(RUN)
    for pairs, extra_kind in extra:
        melds.append(list(pairs))
        kinds.append(extra_kind)
    rack_jokers = solution.jokers_used - table_jokers
    placed.extend([JOKER] * rack_jokers)
    # Kept pinned jokers were counted as real copies of their tile: put the jokers back.
    for tile in kept:
        for meld in melds:
            spot = next((i for i, (t, _) in enumerate(meld) if t == tile), None)
            if spot is not None:
                meld[spot] = (JOKER, tile)
                break
    placed.sort(key=sort_key)
    points = sum(rules.joker_value if t.is_joker else t.number for t in placed)
    return Plan(
        melds=tuple(tuple(t for t, _ in m) for m in melds),
        jokers_as=tuple(tuple(s for t, s in m if t.is_joker) for m in melds),
        kinds=tuple(kinds),
        placed=tuple(placed),
        tiles=len(placed),
        points=points,
    )


def read_meld(meld: Sequence[Tile]) -> tuple[str, tuple[Tile, ...]]:
    """A legal reading of a meld as written (runs left to right): its kind and what its
    jokers stand for.  Raises ``ValueError`` when the meld is not legal."""
    real = [t for t in meld if not t.is_joker]
    if not real:
        raise ValueError("a meld needs a real tile")
    number = real[0].number
    colours = [t.colour for t in real]
    same_number = all(t.number == number for t in real)
    if 3 <= len(meld) <= 4 and same_number and len(set(colours)) == len(colours):
        missing = [Tile(c, number) for c in COLOURS if c not in colours]
        return SET, tuple(missing[: len(meld) - len(real)])
    if len(meld) >= 3 and len(set(colours)) == 1:
        first = next(i for i, t in enumerate(meld) if not t.is_joker)
        start = real[0].number - first
        numbers = range(start, start + len(meld))
        if (
            start >= 1
            and numbers[-1] <= 13
            and all(t.is_joker or t.number == n for t, n in zip(meld, numbers, strict=True))
        ):
            return RUN, tuple(
                Tile(colours[0], n) for t, n in zip(meld, numbers, strict=True) if t.is_joker
            )
    raise ValueError(f"not a meld: {' '.join(map(str, meld))}")


def tiles_of(plan: Plan) -> Counter[Tile]:
    """Every tile on the table after the move, as a multiset."""
    return Counter(t for meld in plan.melds for t in meld)
