"""Runs and sets of the tile rummy: recognising them and valuing them.

A run is three or more consecutive numbers of one colour; a 1 may only come before the 2 and
never after the 13, so runs never wrap.  A set is three or four tiles of one number in
different colours.  A joker stands for any one tile, and counts as that tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..errors import InvalidMeld
from ..tiles import COLOURS, JOKER, Tile, format_tiles
from .rules import RUMMIKUB, Rules

RUN = "run"
SET = "set"
LOWEST = 1
HIGHEST = 13
MIN_MELD = 3
MAX_SET = len(COLOURS)


class MeldFault(InvalidMeld):
    """Why tiles are not a meld: a stable ``code`` with ``params`` (``InvalidMeld``'s form).

    ``reason`` is an English hint for logs and for whoever writes this game's sentences in
    its presentation; no player reads it from here."""

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(code, **params)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal run or set.  ``tiles`` are in table order (runs low to high, sets by colour
    with the jokers last); ``stands_for`` gives, slot by slot, the tile each one represents."""

    kind: str
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]

    @property
    def jokers_as(self) -> tuple[Tile, ...]:
        return tuple(s for t, s in zip(self.tiles, self.stands_for, strict=True) if t.is_joker)

    @property
    def joker_count(self) -> int:
        return sum(t.is_joker for t in self.tiles)

    @property
    def points(self) -> int:
        """The first-meld value: the numbers, a joker counting as the tile it stands for."""
        return sum(s.number for s in self.stands_for)

    @property
    def number(self) -> int:
        """A set's number (0 for runs)."""
        return self.stands_for[0].number if self.kind == SET else 0

    @property
    def colour(self) -> str:
        """A run's colour ('' for sets)."""
        return self.stands_for[0].colour if self.kind == RUN else ""

    @property
    def start(self) -> int:
        """A run's lowest number (0 for sets)."""
        return self.stands_for[0].number if self.kind == RUN else 0

    def missing_colours(self) -> tuple[str, ...]:
        """A set's colours held by no numbered tile: any of them frees one of its jokers."""
        held = {t.colour for t in self.tiles if not t.is_joker}
        return tuple(c for c in COLOURS if c not in held) if self.kind == SET else ()

    def notation(self) -> str:
        """Tiles with each joker written as ``J=<tile>``, so the reading round-trips."""
        return " ".join(
            f"J={s}" if t.is_joker else str(t)
            for t, s in zip(self.tiles, self.stands_for, strict=True)
        )

    def __str__(self) -> str:
        return self.notation()


def classify(
    tiles: Sequence[Tile],
    rules: Rules = RUMMIKUB,
    jokers_as: Sequence[Tile | None] | None = None,
) -> Meld:
    """Recognise ``tiles`` (any order) as a run or a set, or raise :class:`MeldFault`.

    ``jokers_as`` fixes what the jokers stand for, one entry per joker (``None`` leaves one
    free; as jokers are interchangeable, the order of the entries does not matter).
    Among the legal readings the highest-valued is taken; a tie
    goes to the run, then to the reading with the higher numbers.
    """
    options = readings(tiles, rules, jokers_as)
    return max(options, key=preference)


def readings(
    tiles: Sequence[Tile],
    rules: Rules = RUMMIKUB,
    jokers_as: Sequence[Tile | None] | None = None,
) -> list[Meld]:
    """Every legal reading of ``tiles`` that agrees with ``jokers_as`` (never empty: when
    there is none, :class:`MeldFault` says why)."""
    del rules  # the meld shapes are the same under every option; kept for the contract
    tiles = list(tiles)
    real = sorted(t for t in tiles if not t.is_joker)
    jokers = len(tiles) - len(real)
    wanted = _designations(jokers, jokers_as)
    if len(tiles) < MIN_MELD:
        raise MeldFault("too-short", "A meld needs at least three tiles.", size=len(tiles))
    if not real:
        raise MeldFault("only-jokers", "A meld needs at least one numbered tile.")
    found: list[Meld] = []
    problems: list[MeldFault] = []
    for build in (_set_readings, _run_readings):
        try:
            found.extend(m for m in build(real, jokers) if _agrees(m, wanted))
        except MeldFault as fault:
            problems.append(fault)
    if found:
        return found
    if len(problems) == 2:
        # Neither shape fits: report the one the numbered tiles come closer to.
        numbers = {t.number for t in real}
        colours = {t.colour for t in real}
        if len(numbers) == 1:
            raise problems[0]
        if len(colours) == 1:
            raise problems[1]
        raise MeldFault(
            "mixed",
            "These tiles are neither a set (one number, different colours) nor a run "
            "(one colour, consecutive numbers).",
        )
    raise MeldFault(
        "joker-reading",
        "A joker cannot stand for the tile given here.",
        jokers_as=[None if t is None else str(t) for t in wanted],
    )


def preference(meld: Meld) -> tuple[int, int, tuple[Tile, ...]]:
    return (meld.points, meld.kind == RUN, meld.stands_for)


def _designations(jokers: int, jokers_as: Sequence[Tile | None] | None) -> list[Tile | None]:
    if jokers_as is None:
        return [None] * jokers
    wanted = list(jokers_as)
    if len(wanted) != jokers:
        raise MeldFault(
            "joker-count",
            "Give one reading for each joker.",
            jokers=jokers,
            readings=len(wanted),
        )
    for tile in wanted:
        if tile is not None and tile.is_joker:
            raise MeldFault("joker-reading", "A joker stands for a numbered tile.")
    return wanted


def _agrees(meld: Meld, wanted: list[Tile | None]) -> bool:
    # Jokers are interchangeable: the readings given must be among the reading's, whatever
    # the order the jokers were written in.
    given = Counter(w for w in wanted if w is not None)
    return not given or not given - Counter(meld.jokers_as)


def _set_readings(real: list[Tile], jokers: int) -> list[Meld]:
    numbers = {t.number for t in real}
    if len(numbers) > 1:
        raise MeldFault("set-numbers", "A set is made of one number.", numbers=sorted(numbers))
    number = real[0].number
    colours = [t.colour for t in real]
    if len(set(colours)) < len(colours):
        repeated = sorted({c for c in colours if colours.count(c) > 1})
        raise MeldFault(
            "set-repeats-colour", "A set needs tiles of different colours.", colours=repeated
        )
    if len(real) + jokers > MAX_SET:
        raise MeldFault("set-too-long", "A set has at most four tiles.", size=len(real) + jokers)
    ordered = sorted(real, key=lambda t: COLOURS.index(t.colour))
    missing = [c for c in COLOURS if c not in colours]
    melds = []
    for chosen in combinations(missing, jokers):
        stands = tuple(Tile(c, number) for c in chosen)
        melds.append(Meld(SET, (*ordered, *(JOKER,) * jokers), (*ordered, *stands)))
    return melds


def _run_readings(real: list[Tile], jokers: int) -> list[Meld]:
    colours = {t.colour for t in real}
    if len(colours) > 1:
        raise MeldFault("run-colours", "A run is made of one colour.", colours=sorted(colours))
    colour = real[0].colour
    numbers = [t.number for t in real]
    if len(set(numbers)) < len(numbers):
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        raise MeldFault("run-repeats-number", "A run cannot hold a number twice.", numbers=repeated)
    size = len(real) + jokers
    low, high = min(numbers), max(numbers)
    if size > HIGHEST:
        raise MeldFault("run-too-long", "A run goes from 1 to 13 at most.", size=size)
    if high - low + 1 > size:
        raise MeldFault(
            "run-gap",
            "The numbers of a run must follow each other (a 1 only before the 2).",
            gaps=high - low + 1 - len(real),
            jokers=jokers,
        )
    melds = []
    for start in range(max(LOWEST, high - size + 1), min(low, HIGHEST - size + 1) + 1):
        run = [Tile(colour, n) for n in range(start, start + size)]
        held = set(numbers)
        slots = tuple(t if t.number in held else JOKER for t in run)
        melds.append(Meld(RUN, slots, tuple(run)))
    return melds


def describe(meld: Meld) -> str:
    """The meld in notation, for logs and assertion messages."""
    return f"{meld.kind} {format_tiles(meld.tiles)}"
