"""Sets and runs: recognising them, valuing them, extending them and freeing their Jolys.

A run is laid out on *positions* 1..14: position ``p`` holds number ``p``, except position 14,
which holds a 1 that follows the 13 (``12-13-1``).  A 1 is therefore either low (position 1)
or high (position 14) and can never sit in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InvalidMeld
from ..tiles import COLOURS, JOKER, Tile
from .rules import REMI, Rules

RUN = "run"
SET = "set"
HIGH_ONE = 14


def position_number(position: int) -> int:
    return 1 if position == HIGH_ONE else position


def run_value(position: int) -> int:
    """First-meld value of the tile at a run position."""
    if position == 1:
        return 5
    if position == HIGH_ONE:
        return 10
    return 10 if position >= 10 else 5


def set_value(number: int) -> int:
    if number == 1:
        return 25
    return 10 if number >= 10 else 5


def rack_value(tile: Tile, rules: Rules) -> int:
    """What a tile left on a rack costs at the end of a game."""
    if tile.is_joker:
        return rules.rack_joly_value
    if tile.number == 1:
        return rules.rack_one_value
    return 10 if tile.number >= 10 else 5


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal set or run.  ``tiles`` are in table order (runs low to high); ``stands_for``
    gives, slot by slot, the tile each one represents (a Joly's designated tile, otherwise the
    tile itself)."""

    kind: str
    tiles: tuple[Tile, ...]
    stands_for: tuple[Tile, ...]
    start: int = 0  # a run's first position; 0 for sets

    @property
    def jokers_as(self) -> tuple[Tile, ...]:
        return tuple(s for t, s in zip(self.tiles, self.stands_for, strict=True) if t.is_joker)

    @property
    def joker_count(self) -> int:
        return sum(t.is_joker for t in self.tiles)

    def slot_values(self) -> tuple[int, ...]:
        """First-meld value of each slot (a Joly is worth the tile it stands for)."""
        if self.kind == RUN:
            return tuple(run_value(self.start + i) for i in range(len(self.tiles)))
        return tuple(set_value(s.number) for s in self.stands_for)

    @property
    def points(self) -> int:
        return sum(self.slot_values())

    @property
    def number(self) -> int:
        """A set's number (0 for runs)."""
        return self.stands_for[0].number if self.kind == SET else 0

    @property
    def colour(self) -> str:
        """A run's colour ('' for sets)."""
        return self.stands_for[0].colour if self.kind == RUN else ""

    def notation(self) -> str:
        """Tiles with each Joly written as ``J=<tile>``, so the reading round-trips."""
        return " ".join(
            f"J={s}" if t.is_joker else str(t)
            for t, s in zip(self.tiles, self.stands_for, strict=True)
        )

    def __str__(self) -> str:
        return self.notation()


def classify(
    tiles: Sequence[Tile],
    rules: Rules = REMI,
    jokers_as: Sequence[Tile | None] | None = None,
    *,
    keep: Meld | None = None,
) -> Meld:
    """Recognise ``tiles`` (any order) as a set or a run, or raise :class:`InvalidMeld`.

    ``jokers_as`` fixes, in the order the Jolys appear in ``tiles``, what each stands for
    (``None`` leaves one free).  Free Jolys take the highest-valued legal reading; ties keep
    the run open (no Joly as a 1), then put the Joly higher.  ``keep`` is a run being
    extended: its tiles stay where they are, so a Joly standing for a 1 never changes ends.
    """
    del rules  # the meld shapes are the same under every Remi option; kept for siblings
    tiles = list(tiles)
    if len(tiles) < 3:
        raise InvalidMeld("too-few-tiles", size=len(tiles))
    real = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(real)
    wanted = _designations(jokers, jokers_as)
    if len(real) < 2 * jokers:
        raise InvalidMeld("too-many-jolys", jolys=jokers, numbered=len(real))
    numbers = {t.number for t in real}
    colours = {t.colour for t in real}
    if len(numbers) == 1 and len(real) >= 2 and len(colours) == len(real):
        return _classify_set(real, jokers, wanted)
    if len(colours) == 1:
        fixed: dict[int, Tile] = {}
        if keep is not None and keep.kind == RUN:
            fixed = {keep.start + i: t for i, t in enumerate(keep.tiles)}
        return _classify_run(real, jokers, wanted, fixed)
    if len(numbers) == 1:
        raise InvalidMeld("set-colours")
    raise InvalidMeld("not-a-meld")


def _designations(jokers: int, jokers_as: Sequence[Tile | None] | None) -> list[Tile | None]:
    if jokers_as is None:
        return [None] * jokers
    wanted = list(jokers_as)
    if len(wanted) != jokers:
        raise InvalidMeld("designations", jolys=jokers, given=len(wanted))
    for tile in wanted:
        if tile is not None and tile.is_joker:
            raise InvalidMeld("joly-as-joly")
    return wanted


def _classify_set(real: list[Tile], jokers: int, wanted: list[Tile | None]) -> Meld:
    number = real[0].number
    if len(real) + jokers > 4:
        raise InvalidMeld("set-too-long", size=len(real) + jokers)
    missing = [c for c in COLOURS if c not in {t.colour for t in real}]
    chosen: list[Tile] = []
    for want in wanted:
        if want is None:
            continue
        if want.number != number or want.colour not in missing or want in chosen:
            raise InvalidMeld("set-joly", number=number)
        chosen.append(want)
    free = [Tile(c, number) for c in missing if Tile(c, number) not in chosen]
    stands = [w if w is not None else free.pop(0) for w in wanted]
    ordered = sorted(real, key=lambda t: COLOURS.index(t.colour))
    return Meld(SET, (*ordered, *[JOKER] * jokers), (*ordered, *stands))


def _real_positions(
    real: list[Tile], start: int, end: int, blocked: set[int] | None = None
) -> list[int] | None:
    """Positions of the real tiles in the run start..end, or None if they do not fit;
    ``blocked`` positions hold a Joly that stays there."""
    taken: list[int] = list(blocked or ())
    for tile in sorted(real, key=lambda t: t.number):
        if tile.number == 1:
            options = [p for p in (1, HIGH_ONE) if start <= p <= end and p not in taken]
        else:
            options = [tile.number] if start <= tile.number <= end else []
            options = [p for p in options if p not in taken]
        if not options:
            return None
        taken.append(options[0])
    return taken[len(blocked or ()) :]


def _classify_run(
    real: list[Tile], jokers: int, wanted: list[Tile | None], fixed: dict[int, Tile] | None = None
) -> Meld:
    fixed = fixed or {}
    blocked = {p for p, t in fixed.items() if t.is_joker}
    colour = real[0].colour
    for want in wanted:
        if want is not None and want.colour != colour:
            raise InvalidMeld("run-joly-colour", colour=colour)
    length = len(real) + jokers
    if length > HIGH_ONE:
        raise InvalidMeld("run-too-long", size=length)
    best: tuple[tuple[int, int, int], Meld] | None = None
    for start in range(1, HIGH_ONE - length + 2):
        end = start + length - 1
        placed = _real_positions(real, start, end, blocked)
        if placed is None:
            continue
        gaps = [p for p in range(start, end + 1) if p not in placed]
        reading = _match_jokers(gaps, wanted)
        if reading is None:
            continue
        meld = _build_run(colour, real, placed, reading, start, end)
        if any(not start <= p <= end or meld.tiles[p - start] != t for p, t in fixed.items()):
            continue  # a run being extended keeps every tile, and every Joly, in its place
        key = (meld.points, -sum(g in (1, HIGH_ONE) for g in gaps), sum(gaps))
        if best is None or key > best[0]:
            best = (key, meld)
    if best is None:
        if len({t.number for t in real}) < len(real) and not _two_ones(real):
            raise InvalidMeld("run-repeats")
        raise InvalidMeld("run-gaps", tiles=[str(t) for t in sorted(real)], jolys=jokers)
    return best[1]


def _two_ones(real: list[Tile]) -> bool:
    return sum(t.number == 1 for t in real) == 2 and len({t.number for t in real}) == len(real) - 1


def _match_jokers(gaps: list[int], wanted: list[Tile | None]) -> list[int] | None:
    """Joker positions in the order of ``wanted``, consistent with any fixed designations."""
    free_gaps = list(gaps)
    assigned: dict[int, int] = {}
    for index, want in enumerate(wanted):
        if want is None:
            continue
        candidates = [p for p in free_gaps if position_number(p) == want.number]
        if not candidates:
            return None
        assigned[index] = candidates[0]
        free_gaps.remove(candidates[0])
    result = []
    for index in range(len(wanted)):
        result.append(assigned[index] if index in assigned else free_gaps.pop(0))
    return result


def _build_run(
    colour: str,
    real: list[Tile],
    placed: list[int],
    joker_positions: list[int],
    start: int,
    end: int,
) -> Meld:
    by_position: dict[int, tuple[Tile, Tile]] = {}
    for tile, pos in zip(sorted(real, key=lambda t: t.number), placed, strict=True):
        by_position[pos] = (tile, tile)
    for pos in joker_positions:
        by_position[pos] = (JOKER, Tile(colour, position_number(pos)))
    slots = [by_position[p] for p in range(start, end + 1)]
    return Meld(RUN, tuple(t for t, _ in slots), tuple(s for _, s in slots), start)


def extend(
    meld: Meld, added: Sequence[Tile], jokers_as: Sequence[Tile | None] | None = None
) -> Meld:
    """``meld`` with ``added`` tiles laid on it.  A run keeps its Jolys where they are."""
    if not added:
        raise InvalidMeld("nothing-added")
    new_jokers = sum(t.is_joker for t in added)
    designations = _designations(new_jokers, jokers_as)
    keep = list(meld.jokers_as) if meld.kind == RUN else [None] * meld.joker_count
    try:
        result = classify([*meld.tiles, *added], jokers_as=[*keep, *designations], keep=meld)
    except InvalidMeld as exc:
        # Why the longer meld fails, kept as data for the presentation's sentence.
        raise InvalidMeld(
            "cannot-extend", tiles=_names(added), meld=str(meld), fault=exc.as_data()
        ) from None
    if result.kind != meld.kind:
        raise InvalidMeld("cannot-extend", tiles=_names(added), meld=str(meld))
    return result


def _names(tiles: Sequence[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def free_joker(meld: Meld, replacement: Sequence[Tile]) -> Meld:
    """``meld`` after ``replacement`` takes the place of one of its Jolys (the Joly leaves).

    In a run the replacement is the exact tile the Joly stands for.  In a set of two tiles and
    a Joly it is both missing colours; in a set of three and a Joly, the missing colour.
    """
    if meld.joker_count == 0:
        raise InvalidMeld("no-joly")
    if any(t.is_joker for t in replacement):
        raise InvalidMeld("joly-for-joly")
    if meld.kind == RUN:
        if len(replacement) != 1:
            raise InvalidMeld("run-one-replacement")
        tile = replacement[0]
        stands = list(meld.stands_for)
        slots = list(meld.tiles)
        for i, (t, s) in enumerate(zip(slots, stands, strict=True)):
            if t.is_joker and s == tile:
                slots[i] = tile
                return Meld(RUN, tuple(slots), tuple(stands), meld.start)
        raise InvalidMeld("joly-not-for", meld=str(meld), tile=str(tile))
    real = [t for t in meld.tiles if not t.is_joker]
    missing = {Tile(c, meld.number) for c in COLOURS} - set(real)
    if sorted(replacement) != sorted(missing):
        raise InvalidMeld("free-joly-needs", tiles=_names(sorted(missing)))
    return classify([*real, *replacement])
