"""An exact solver for one turn's placement: the best melds and additions a rack can make.

``solve`` answers "which tiles should I lay down now?" for the bots.  It is exact: the plan it
returns is optimal for the objective, and it is deterministic for the same input.

How it works
------------
1. *Pieces.*  Every way the rack can contribute one unit of play is listed up front:
   every new set and run the rack can form (with every Joly reading that matters), and for each
   table meld every single extension of it (a run grown at its low end, its high end or both at
   once; a set given a missing colour or a Joly).  A table meld takes at most one piece, so two
   additions to the same meld are always one piece.  Pieces that use the same rack tiles for the
   same target are interchangeable, so only the best-valued one is kept.
2. *Search.*  Rack tiles are decided in a fixed order (number, then colour).  The lowest
   undecided tile is either left on the rack (all its remaining copies at once) or used in one
   piece *anchored* at it (a piece whose lowest tile it is, so all its other tiles are still
   undecided).  Jolys only ever enter through pieces; Joly-only additions to table melds are
   settled once every numbered tile is decided.  Tile counts live in one packed integer, so
   taking a piece is a subtraction and a mask.
3. *Bounds and memo.*  A state (remaining tiles, Jolys, table melds already extended, plus
   the few facts the constraints need) is searched with a floor, the value it must beat to
   matter.  An optimistic bound — every remaining tile placed at its best slot value, less the
   tiles that must stay — cuts states and choices that cannot beat the floor.  The memo keeps
   exact values, and for states that could not beat their floor, that floor as an upper bound
   (reused only for floors as high), so the plan read back from the memo is exact.  Identical
   table melds are extended in index order only, so their symmetric choices are tried once.
4. *Constraints* ride along in the state: how many tiles must still be left on the rack
   (``keep``), whether a run is still needed (first meld), and — when the objective is tiles —
   how many first-meld points are still needed.  With the points objective a first meld's
   minimum is the root's floor, so racks that cannot open are refuted quickly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..core.budget import OutOfTime, Stop, never
from ..tiles import COLOURS, JOKER, Tile
from .actions import Action, AddToMeld, Group, MeldAction
from .melds import HIGH_ONE, RUN, Meld, position_number, run_value, set_value
from .rules import Rules

POINTS = "points"
TILES = "tiles"
OBJECTIVES = (POINTS, TILES)

NEW = -1  # the target of a piece that is a new meld rather than an addition


@dataclass(frozen=True)
class Plan:
    """What to lay down this turn.

    ``melds`` are new melds from the rack (run Jolys designated); ``additions`` pairs a table
    meld index with the tiles added to it (at most one entry per meld).  ``points`` is the
    first-meld-scale value of every tile placed, ``tiles`` the number of rack tiles placed.
    """

    melds: tuple[Group, ...]
    additions: tuple[tuple[int, Group], ...]
    points: int
    tiles: int

    def actions(self) -> list[Action]:
        """Engine actions that play this plan: the new melds as one ``meld`` (a first meld must
        be a single action), then one ``add`` per table meld.  New melds go to the end of the
        table, so the indices of the additions stay valid."""
        played: list[Action] = []
        if self.melds:
            played.append(MeldAction(self.melds))
        played.extend(AddToMeld(index, group) for index, group in self.additions)
        return played

    def __str__(self) -> str:
        return "; ".join(str(a) for a in self.actions()) or "(nothing)"


EMPTY_PLAN = Plan((), (), 0, 0)


@dataclass(frozen=True, slots=True)
class _Piece:
    """One new meld, or one extension of one table meld, as the search sees it."""

    target: int  # table meld index, or NEW
    real: tuple[Tile, ...]  # numbered rack tiles used, sorted
    jokers: int
    points: int
    run: bool  # a new run (what first_meld_needs_run asks for)
    group: Group
    values: tuple[int, ...]  # slot value of each tile in ``real``
    joker_value: int  # the best slot value any of its Jolys gets (0 without Jolys)
    # Between equal pieces, the engine's own preference for a Joly's reading: not a 1 (the
    # run stays open at both ends), then higher.
    openness: tuple[int, int] = (0, 0)


def _order_key(tile: Tile) -> tuple[int, int]:
    # Number first: sets are decided at their number and runs at their lowest tile, which keeps
    # the tiles a choice reaches ahead to few, so the memoised states stay few.
    return (tile.number, COLOURS.index(tile.colour))


def _run_tile(colour: str, position: int) -> Tile:
    return Tile(colour, position_number(position))


# --- listing the pieces ------------------------------------------------------------------


def _fits(tiles: Sequence[Tile], counts: Counter[Tile]) -> bool:
    need = Counter(tiles)
    return all(counts[t] >= k for t, k in need.items())


def _run_piece(
    colour: str, positions: Sequence[int], joker_at: frozenset[int]
) -> tuple[tuple[Tile, ...], int, list[Tile], list[Tile], list[int], int, tuple[int, int]]:
    """Tiles, designations and values for run ``positions`` with Jolys at ``joker_at``."""
    real: list[Tile] = []
    values: list[int] = []
    laid: list[Tile] = []
    designations: list[Tile] = []
    joker_value = 0
    for p in positions:
        tile = _run_tile(colour, p)
        if p in joker_at:
            laid.append(JOKER)
            designations.append(tile)
            joker_value = max(joker_value, run_value(p))
        else:
            laid.append(tile)
            real.append(tile)
            values.append(run_value(p))
    points = sum(run_value(p) for p in positions)
    openness = (-sum(p in (1, HIGH_ONE) for p in joker_at), sum(joker_at))
    return tuple(laid), points, real, designations, values, joker_value, openness


def _make_piece(
    target: int,
    laid: Sequence[Tile],
    designations: Sequence[Tile | None],
    real: Sequence[Tile],
    values: Sequence[int],
    points: int,
    run: bool,
    joker_value: int,
    openness: tuple[int, int] = (0, 0),
) -> _Piece:
    order = sorted(range(len(real)), key=lambda i: _order_key(real[i]))
    return _Piece(
        target=target,
        real=tuple(real[i] for i in order),
        jokers=len(laid) - len(real),
        points=points,
        run=run,
        group=Group(tuple(laid), tuple(designations)),
        values=tuple(values[i] for i in order),
        joker_value=joker_value,
        openness=openness,
    )


def _new_runs(counts: Counter[Tile], jokers: int) -> list[_Piece]:
    pieces: list[_Piece] = []
    for colour in COLOURS:
        for start in range(1, HIGH_ONE - 1):
            missing: list[int] = []
            for end in range(start, HIGH_ONE + 1):
                if not counts[_run_tile(colour, end)]:
                    missing.append(end)
                    if len(missing) > jokers:
                        break
                length = end - start + 1
                if length < 3:
                    continue
                positions = range(start, end + 1)
                present = [p for p in positions if p not in missing]
                # Jolys fill the gaps; a spare Joly may also stand in for a tile the rack has,
                # which frees that tile for another meld (sometimes the only way to use both).
                most = min(jokers, length // 3)
                for extra in range(0, most - len(missing) + 1):
                    for spare in combinations(present, extra):
                        joker_at = frozenset(missing) | frozenset(spare)
                        laid, points, real, designations, values, jv, opens = _run_piece(
                            colour, positions, joker_at
                        )
                        if not _fits(real, counts):  # a 1-to-1 run needs both 1s
                            continue
                        pieces.append(
                            _make_piece(
                                NEW, laid, designations, real, values, points, True, jv, opens
                            )
                        )
    return pieces


def _new_sets(counts: Counter[Tile], jokers: int) -> list[_Piece]:
    pieces: list[_Piece] = []
    for number in range(1, 14):
        present = [Tile(c, number) for c in COLOURS if counts[Tile(c, number)]]
        value = set_value(number)
        for size in (2, 3, 4):
            for chosen in combinations(present, size):
                for joly in (0, 1):
                    total = size + joly
                    if total < 3 or total > 4 or joly > jokers or size < 2 * joly:
                        continue
                    laid = [*chosen, *[JOKER] * joly]
                    pieces.append(
                        _make_piece(
                            NEW,
                            laid,
                            (),
                            chosen,
                            [value] * size,
                            value * total,
                            False,
                            value if joly else 0,
                        )
                    )
    return pieces


def _end_fills(
    colour: str, positions: Sequence[int], counts: Counter[Tile], jokers: int
) -> list[tuple[int, ...]]:
    """Every way to fill a prefix of ``positions`` (running outwards from a run's end) with
    rack tiles or Jolys: each fill is a tuple of flags, 1 for a Joly, 0 for the rack tile."""
    fills: list[tuple[int, ...]] = [()]
    frontier: list[tuple[int, ...]] = [()]
    for p in positions:
        have = counts[_run_tile(colour, p)] > 0
        grown: list[tuple[int, ...]] = []
        for fill in frontier:
            if have:
                grown.append((*fill, 0))
            if sum(fill) < jokers:
                grown.append((*fill, 1))
        if not grown:
            break
        fills.extend(grown)
        frontier = grown
    return fills


def _run_extensions(index: int, meld: Meld, counts: Counter[Tile], jokers: int) -> list[_Piece]:
    colour = meld.colour
    start = meld.start
    end = start + len(meld.tiles) - 1
    real_before = len(meld.tiles) - meld.joker_count
    low = _end_fills(colour, range(start - 1, 0, -1), counts, jokers)
    high = _end_fills(colour, range(end + 1, HIGH_ONE + 1), counts, jokers)
    pieces: list[_Piece] = []
    for low_fill in low:
        for high_fill in high:
            if not low_fill and not high_fill:
                continue
            added_jokers = sum(low_fill) + sum(high_fill)
            added = len(low_fill) + len(high_fill)
            if added_jokers > jokers:
                continue
            # The whole meld must keep twice as many numbered tiles as Jolys.
            if real_before + added - added_jokers < 2 * (meld.joker_count + added_jokers):
                continue
            # Positions low to high; the low fill runs outwards, so reverse it.
            low_positions = [start - 1 - i for i in range(len(low_fill))][::-1]
            high_positions = [end + 1 + i for i in range(len(high_fill))]
            flags = [*low_fill[::-1], *high_fill]
            positions = [*low_positions, *high_positions]
            joker_at = frozenset(p for p, f in zip(positions, flags, strict=True) if f)
            laid, points, real, designations, values, jv, opens = _run_piece(
                colour, positions, joker_at
            )
            if not _fits(real, counts):  # both ends may want the same 1
                continue
            pieces.append(
                _make_piece(index, laid, designations, real, values, points, False, jv, opens)
            )
    return pieces


def _set_extensions(index: int, meld: Meld, counts: Counter[Tile], jokers: int) -> list[_Piece]:
    if len(meld.tiles) >= 4:
        return []
    number = meld.number
    value = set_value(number)
    real_colours = {t.colour for t in meld.tiles if not t.is_joker}
    pieces: list[_Piece] = []
    for colour in COLOURS:
        tile = Tile(colour, number)
        if colour not in real_colours and counts[tile]:
            pieces.append(_make_piece(index, [tile], (), [tile], [value], value, False, 0))
    # Three numbered tiles may take a Joly as the fourth; two and a Joly may not take another.
    if jokers and meld.joker_count == 0:
        pieces.append(_make_piece(index, [JOKER], (), [], [], value, False, value))
    return pieces


def _pieces(
    counts: Counter[Tile], jokers: int, table: Sequence[Meld], may_add: bool
) -> list[_Piece]:
    found = _new_runs(counts, jokers) + _new_sets(counts, jokers)
    if may_add:
        for index, meld in enumerate(table):
            if meld.kind == RUN:
                found.extend(_run_extensions(index, meld, counts, jokers))
            else:
                found.extend(_set_extensions(index, meld, counts, jokers))
    # Pieces that take the same tiles for the same target are interchangeable: keep the best
    # valued, and between equals the Joly reading the engine itself would pick (the first of
    # full equals, so the choice is deterministic).  Keeping the best also matches the engine,
    # which reads an undesignated tile the highest-valued way.
    best: dict[tuple[int, tuple[Tile, ...], int], _Piece] = {}
    for piece in found:
        key = (piece.target, piece.real, piece.jokers)
        kept = best.get(key)
        if kept is None or (piece.points, piece.openness) > (kept.points, kept.openness):
            best[key] = piece
    return list(best.values())


# --- the search --------------------------------------------------------------------------

# Tile counts are packed four bits each: a count (0..7, in practice 0..2) under a guard bit, so
# one subtraction takes a piece's tiles and one mask tells whether the rack had them all.
_BITS = 4
_COUNT = 7
_GUARD = 8

# A plan's value is a pair compared in order — (points, tiles) or (tiles, points) — packed into
# one integer, primary * _SCALE + secondary, so values add and compare as plain integers.  The
# secondary part never reaches _SCALE (at most 106 tiles, or 106 tiles of 25 points).
_SCALE = 1 << 16
_INFEASIBLE = -(1 << 60)
_ROOT_FLOOR = -(1 << 50)  # far above _INFEASIBLE, far below any real value
_LEAVE = "leave"
# Asking the caller's clock costs more than expanding a state: ask once in this many.
_STOP_EVERY = 512


@dataclass(frozen=True, slots=True)
class _Move:
    """A piece compiled for the search."""

    piece: _Piece
    need: int  # packed tile counts it uses
    jokers: int
    points: int
    gain: int  # its packed value
    bound: int  # the packed optimistic value of the tiles it uses (see _Search.tile_bound)
    bound0: int  # the same once no Joly is left (see _Search.tile_bound0)
    bit: int  # the table meld it uses, as a bit (0 for a new meld)
    twins: int  # earlier table melds identical to its target: they must be used first
    run: bool


class _Search:
    """Memoised branch and bound over the rack's tiles.

    ``best`` is called with a *floor*: only futures worth more than the floor matter to the
    caller.  It returns the exact best value when that beats the floor; otherwise it returns
    the floor itself, which is then an upper bound on the true value ("fails low").  The memo
    keeps which of the two each entry is, so a fail-low entry is reused only for floors at
    least as high, and the choices along the optimal path are always exact.
    """

    def __init__(
        self,
        kinds: list[Tile],
        counts: list[int],
        pieces: list[_Piece],
        objective: str,
        must: list[int],
        spare_jokers: int,
        stop: Stop = never,
    ) -> None:
        self.stop = stop
        self.calls = 0  # states expanded: ``stop`` is asked once every _STOP_EVERY of them
        self.orig = counts
        self.must = must
        self.spare_jokers = spare_jokers  # the most Jolys the plan may leave unplaced
        self.by_points = objective == POINTS
        self.guard = sum(_GUARD << (_BITS * i) for i in range(len(kinds)))
        index = {t: i for i, t in enumerate(kinds)}
        # The best slot value each tile (and a Joly) reaches in any piece gives the optimistic
        # bound: the remaining tiles, each placed at its best, all placed.  Once the Jolys are
        # gone, only pieces without Jolys count (many tiles fit only with a Joly's help), so a
        # second bound, tile_bound0, takes over.
        best_value = [0] * len(kinds)
        best_value0 = [-1] * len(kinds)  # -1: no piece without a Joly takes this tile
        joker_best = 0
        for piece in pieces:
            for tile, value in zip(piece.real, piece.values, strict=True):
                i = index[tile]
                best_value[i] = max(best_value[i], value)
                if not piece.jokers:
                    best_value0[i] = max(best_value0[i], value)
            joker_best = max(joker_best, piece.joker_value)
        self.tile_bound = [self.pack(v, 1) for v in best_value]
        self.tile_bound0 = [self.pack(v, 1) if v >= 0 else 0 for v in best_value0]
        self.joker_bound = self.pack(joker_best, 1)
        # Tiles that must stay on the rack (``keep``) place nothing: each one left costs the
        # bound at least the cheapest tile's value (a Joly's too, when Jolys fit anywhere).
        usable_jokers = [self.joker_bound] if joker_best else []
        self.cheapest = min([*self.tile_bound, *usable_jokers], default=0)
        self.cheapest0 = min(self.tile_bound0, default=0)
        twins = self._twins(pieces)
        self.anchored: list[list[_Move]] = [[] for _ in kinds]
        self.joker_only: list[_Move] = []
        relevant_at = [0] * (len(kinds) + 1)
        joker_melds = 0
        for piece in pieces:
            need = sum(1 << (_BITS * index[t]) for t in piece.real)
            bound = sum(self.tile_bound[index[t]] for t in piece.real)
            bound += piece.jokers * self.joker_bound
            bound0 = sum(self.tile_bound0[index[t]] for t in piece.real)
            bit = 0 if piece.target == NEW else 1 << piece.target
            move = _Move(
                piece=piece,
                need=need,
                jokers=piece.jokers,
                points=piece.points,
                gain=self.pack(piece.points, len(piece.real) + piece.jokers),
                bound=bound,
                bound0=bound0,
                bit=bit,
                twins=twins.get(piece.target, 0),
                run=piece.run,
            )
            if piece.real:
                anchor = index[piece.real[0]]
                self.anchored[anchor].append(move)
                relevant_at[anchor] |= bit
            else:
                self.joker_only.append(move)
                joker_melds |= bit
        # Most valuable first: a good value found early lets the bounds cut more of the rest.
        for moves in self.anchored:
            moves.sort(key=lambda m: -m.gain)
        self.joker_only.sort(key=lambda m: (-m.points, m.jokers))
        # Which table melds can still matter from tile k on: the search forgets the others,
        # so states that differ only in melds nobody can reach any more are one state.
        for k in range(len(kinds) - 1, -1, -1):
            relevant_at[k] |= relevant_at[k + 1]
        self.relevant_at = relevant_at
        self.joker_melds = joker_melds
        self.memo: dict[tuple[int, ...], tuple[int, bool, _Move | str | None]] = {}
        self.ends: dict[tuple[int, ...], tuple[int, tuple[_Move, ...]]] = {}

    def pack(self, points: int, tiles: int) -> int:
        if self.by_points:
            return points * _SCALE + tiles
        return tiles * _SCALE + points

    def unpack(self, value: int) -> tuple[int, int]:
        """(points, tiles) of a packed value."""
        high, low = divmod(value, _SCALE)
        return (high, low) if self.by_points else (low, high)

    @staticmethod
    def _twins(pieces: list[_Piece]) -> dict[int, int]:
        """For each table meld, the earlier melds that take exactly the same pieces.  Such
        melds are interchangeable (two B1 B2 B3 on the table, say), so the search only ever
        extends the first unused one of them, instead of trying each."""
        offers: dict[int, list[tuple[tuple[Tile, ...], int, int]]] = {}
        for piece in pieces:
            if piece.target != NEW:
                offers.setdefault(piece.target, []).append((piece.real, piece.jokers, piece.points))
        earlier: dict[frozenset[tuple[tuple[Tile, ...], int, int]], int] = {}
        twins: dict[int, int] = {}
        for target in sorted(offers):
            signature = frozenset(offers[target])  # a meld's pieces are all different
            twins[target] = earlier.get(signature, 0)
            earlier[signature] = twins[target] | (1 << target)
        return twins

    # The state: rem (packed counts of undecided tiles), jok (Jolys not yet used), used (table
    # melds already extended), has_run, leave (tiles that must still be left on the rack),
    # need (first-meld points still needed, only when the objective is tiles).  ``bound`` is
    # the packed optimistic value of rem and jok, ``bound0`` that of rem alone counting only
    # pieces without Jolys; both are passed down rather than recomputed.

    def reach(self, bound: int, bound0: int, jok: int, leave: int) -> int:
        """The most any future can be worth, given the bounds and the tiles that must stay."""
        if jok:
            return bound - leave * self.cheapest
        return bound0 - leave * self.cheapest0

    def best(
        self,
        rem: int,
        jok: int,
        used: int,
        has_run: bool,
        leave: int,
        need: int,
        bound: int,
        bound0: int,
        floor: int,
    ) -> int:
        if not rem:
            return self.finish(jok, used, has_run, leave, need)
        if self.reach(bound, bound0, jok, leave) <= floor:
            return floor  # even placing everything at its best cannot beat the floor
        k = ((rem & -rem).bit_length() - 1) // _BITS
        used &= self.relevant_at[k] | (self.joker_melds if jok else 0)
        state = (rem, jok, used, has_run, leave, need)
        hit = self.memo.get(state)
        if hit is not None and (hit[1] or hit[0] <= floor):
            return hit[0]
        self.calls += 1
        if not self.calls % _STOP_EVERY and self.stop():
            raise OutOfTime
        count = (rem >> (_BITS * k)) & _COUNT
        threshold = floor
        choice: _Move | str | None = None
        guard = self.guard
        for move in self.anchored[k]:
            if move.jokers > jok or move.bit & used or used & move.twins != move.twins:
                continue
            if ((rem | guard) - move.need) & guard != guard:
                continue
            after = jok - move.jokers
            hope = self.reach(bound - move.bound, bound0 - move.bound0, after, leave)
            if hope + move.gain <= threshold:
                continue
            child = self.best(
                rem - move.need,
                after,
                used | move.bit,
                has_run or move.run,
                leave,
                max(0, need - move.points),
                bound - move.bound,
                bound0 - move.bound0,
                threshold - move.gain,
            )
            if child + move.gain > threshold:
                threshold = child + move.gain
                choice = move
        # Leave every remaining copy of this tile (one copy used and one left is reached by
        # using one copy first).  A tile the plan must use cannot be left.
        if self.orig[k] - count >= self.must[k]:
            lost = count * self.tile_bound[k]
            lost0 = count * self.tile_bound0[k]
            still = max(0, leave - count)
            if self.reach(bound - lost, bound0 - lost0, jok, still) > threshold:
                child = self.best(
                    rem - (count << (_BITS * k)),
                    jok,
                    used,
                    has_run,
                    still,
                    need,
                    bound - lost,
                    bound0 - lost0,
                    threshold,
                )
                if child > threshold:
                    threshold = child
                    choice = _LEAVE
        self.memo[state] = (threshold, choice is not None, choice)
        return threshold

    def finish(self, jok: int, used: int, has_run: bool, leave: int, need: int) -> int:
        """Every numbered tile is decided: place spare Jolys on table melds not yet extended.
        Always exact."""
        used &= self.joker_melds
        state = (jok, used, has_run, leave, need)
        hit = self.ends.get(state)
        if hit is not None:
            return hit[0]
        best = _INFEASIBLE
        choice: tuple[_Move, ...] = ()
        spare = jok - leave
        if has_run and spare >= 0:
            options: list[tuple[_Move, ...]] = [()]
            free = [m for m in self.joker_only if not m.bit & used and m.jokers <= spare]
            # The best single addition of one Joly, and of two (sorted best first).
            for jokers in (1, 2):
                one = next((m for m in free if m.jokers == jokers), None)
                if one is not None:
                    options.append((one,))
            # Two one-Joly additions on different melds: the best one and its best partner.
            singles = [m for m in free if m.jokers == 1]
            if spare >= 2 and singles:
                partner = next((m for m in singles if m.bit != singles[0].bit), None)
                if partner is not None:
                    options.append((singles[0], partner))
            for moves in options:
                points = sum(m.points for m in moves)
                placed = sum(m.jokers for m in moves)
                if points < need or jok - placed > self.spare_jokers:
                    continue
                value = self.pack(points, placed)
                if value > best:
                    best, choice = value, moves
        self.ends[state] = (best, choice)
        return best

    def replay(
        self, rem: int, jok: int, used: int, has_run: bool, leave: int, need: int
    ) -> list[_Piece]:
        """The pieces of the best plan from the root (after ``best`` has filled the memo)."""
        chosen: list[_Piece] = []
        while rem:
            k = ((rem & -rem).bit_length() - 1) // _BITS
            used &= self.relevant_at[k] | (self.joker_melds if jok else 0)
            _, exact, move = self.memo[(rem, jok, used, has_run, leave, need)]
            assert exact
            if move == _LEAVE:
                count = (rem >> (_BITS * k)) & _COUNT
                rem -= count << (_BITS * k)
                leave = max(0, leave - count)
                continue
            assert isinstance(move, _Move)
            chosen.append(move.piece)
            rem -= move.need
            jok -= move.jokers
            used |= move.bit
            has_run = has_run or move.run
            need = max(0, need - move.points)
        used &= self.joker_melds
        _, moves = self.ends[(jok, used, has_run, leave, need)]
        chosen.extend(m.piece for m in moves)
        return chosen


def solve(
    rack: Sequence[Tile],
    table: Sequence[Meld],
    rules: Rules,
    *,
    first_meld: bool,
    may_add: bool = True,
    objective: str = POINTS,
    keep: int = 1,
    must_use: Sequence[Tile] = (),
    stop: Stop = never,
) -> Plan | None:
    """The optimal placement for ``rack`` against the ``table`` melds.

    ``first_meld``: only new melds, worth at least ``rules.first_meld_minimum`` and holding a
    run if the rules ask; None when no such meld exists.  Otherwise new melds of any value and
    (``may_add``) additions to table melds; the empty plan when nothing can be placed.
    ``objective`` is ``"points"`` (ties: more tiles) or ``"tiles"`` (ties: more points).
    At least ``keep`` tiles stay on the rack.  ``must_use`` tiles (e.g. a discard taken for the
    first meld) must all be placed; None when that is impossible.
    ``stop`` (see ``core.budget``) is asked now and then; when it answers True the search
    raises ``OutOfTime``.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if keep < 0:
        raise ValueError("keep cannot be negative")
    counts = Counter(t for t in rack if not t.is_joker)
    jokers = len(rack) - sum(counts.values())
    # The game has two Jolys (the Joly-only additions at the end of the search place at most
    # two) and two of each tile (the packed counts have room for seven).
    if jokers > 2:
        raise ValueError("a rack holds at most two Jolys")
    if any(k > _COUNT for k in counts.values()):
        raise ValueError(f"a rack holds at most {_COUNT} copies of a tile")
    required = Counter(must_use)
    if any(required[t] > (jokers if t.is_joker else counts[t]) for t in required):
        raise ValueError("must_use names tiles that are not on the rack")
    pieces = _pieces(counts, jokers, table, may_add and not first_meld)
    # Tiles that fit no piece are left from the start; they already satisfy part of ``keep``.
    usable = {t for piece in pieces for t in piece.real}
    if any(t not in usable for t in required if not t.is_joker):
        return None
    kinds = sorted(usable, key=_order_key)
    unusable = sum(k for t, k in counts.items() if t not in usable)
    if not any(piece.jokers for piece in pieces):
        if required[JOKER]:
            return None
        unusable += jokers  # Jolys that fit nowhere stay too
        jokers = 0
    search = _Search(
        kinds,
        [counts[t] for t in kinds],
        pieces,
        objective,
        [required[t] for t in kinds],
        jokers - required[JOKER],
        stop,
    )
    rem = sum(counts[t] << (_BITS * i) for i, t in enumerate(kinds))
    bound = sum(counts[t] * search.tile_bound[i] for i, t in enumerate(kinds))
    bound += jokers * search.joker_bound
    bound0 = sum(counts[t] * search.tile_bound0[i] for i, t in enumerate(kinds))
    root = (
        rem,
        jokers,
        0,
        not (first_meld and rules.first_meld_needs_run),  # has_run: true when none is needed
        max(0, keep - unusable),
        rules.first_meld_minimum if first_meld and objective == TILES else 0,
    )
    floor = _ROOT_FLOOR
    if first_meld and objective == POINTS:
        floor = search.pack(rules.first_meld_minimum, 0) - 1  # only plans that open matter
    value = search.best(*root, bound, bound0, floor)
    if value <= floor:  # the constraints cannot be met
        return None if first_meld or required else EMPTY_PLAN
    points, tiles = search.unpack(value)
    if first_meld and (points < rules.first_meld_minimum or tiles == 0):
        return None
    chosen = search.replay(*root)
    melds = tuple(p.group for p in chosen if p.target == NEW)
    additions = tuple(
        sorted(((p.target, p.group) for p in chosen if p.target != NEW), key=lambda a: a[0])
    )
    assert sum(p.points for p in chosen) == points
    assert sum(len(p.real) + p.jokers for p in chosen) == tiles
    return Plan(melds, additions, points, tiles)
