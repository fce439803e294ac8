"""Tiles and their text notation.

A tile is written as its colour letter and number (``R12``, ``K1``) or ``J`` for a Joly
(joker).  Tiles are values: the two physical copies of ``R5`` are equal and interchangeable,
so the engine never needs to tell them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import InvalidAction

COLOURS = ("R", "Y", "B", "K")
COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue", "K": "black"}
NUMBERS = range(1, 14)
JOKER_TEXT = "J"


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """A numbered tile (``colour`` in R/Y/B/K, ``number`` 1-13) or a Joly (``colour == "J"``)."""

    colour: str
    number: int = 0
    # Worked out once per tile: the engines and their tests read these millions of times a
    # game (as a property and an f-string they were a third of a random game's time).  None
    # takes part in equality or order, which stay the colour's and number's.
    is_joker: bool = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)
    hashed: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        joker = self.colour == JOKER_TEXT
        object.__setattr__(self, "is_joker", joker)
        object.__setattr__(self, "text", JOKER_TEXT if joker else f"{self.colour}{self.number}")
        # From the code points, not hash(str): the same in every process, whatever its seed.
        object.__setattr__(self, "hashed", sum(map(ord, self.colour)) * 64 + self.number)

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self) -> tuple[type[Tile], tuple[str, int]]:
        # Pickled as its colour and number: the worked-out fields are made again on loading.
        return (Tile, (self.colour, self.number))

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile({self})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        return parse_tile(text)


JOKER = Tile(JOKER_TEXT, 0)

_CACHE: dict[str, Tile] = {JOKER_TEXT: JOKER}
for _c in COLOURS:
    for _n in NUMBERS:
        _CACHE[f"{_c}{_n}"] = Tile(_c, _n)


def parse_tile(text: str) -> Tile:
    tile = _CACHE.get(text.strip().upper())
    if tile is None:
        raise InvalidAction("not-a-tile", text=text)
    return tile


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """``"R12 R13 R1 J"`` (spaces or commas) → tiles, in the order written."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_tile(w) for w in words]


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join([t.text for t in tiles])


def full_set() -> list[Tile]:
    """The 106 tiles of a Remi set: every colour and number twice, and two Jolys."""
    tiles = [Tile(c, n) for c in COLOURS for n in NUMBERS for _ in range(2)]
    return [*tiles, JOKER, JOKER]


def sort_key(tile: Tile) -> tuple[int, int]:
    """Rack order: by colour, then number; Jolys last."""
    if tile.is_joker:
        return (len(COLOURS), 0)
    return (COLOURS.index(tile.colour), tile.number)


def remove_tiles(pool: list[Tile], tiles: Iterable[Tile]) -> list[Tile] | None:
    """``pool`` without ``tiles`` (as a multiset), or ``None`` when the pool lacks one of them."""
    need = Counter(tiles)
    have = Counter(pool)
    if any(have[t] < k for t, k in need.items()):
        return None
    left = list(pool)
    for tile, count in need.items():
        for _ in range(count):
            left.remove(tile)
    return left


def describe(tile: Tile) -> str:
    """Words for a tile, for screen readers and the log: 'red 12', 'Joly'."""
    return "Joly" if tile.is_joker else f"{COLOUR_NAMES[tile.colour]} {tile.number}"
