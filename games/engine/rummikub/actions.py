"""The actions of a turn and their compact notation.

    play R1 R2 R3 | K7 Y7 B7 J | R5 J=R6 R7   the whole table after the turn, meld by meld
    draw                                       play nothing: draw a tile (a pass when the
                                               stock is empty)
    timeout                                    the turn's time ran out: the penalty draw

In ``play`` a joker is written ``J``, or ``J=R6`` to fix the tile it stands for; without a
reading the engine keeps the joker's reading from the start of the turn when it can, and
otherwise takes the highest-valued one.  ``parse_action(str(a)) == a`` for every action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from ..errors import InvalidAction
from ..tiles import JOKER, JOKER_TEXT, Tile, parse_tile

MELD_SEPARATOR = "|"


@dataclass(frozen=True, slots=True)
class Group:
    """One meld as a player wrote it; ``jokers_as`` lines up with its jokers (empty when no
    joker was given a reading)."""

    tiles: tuple[Tile, ...]
    jokers_as: tuple[Tile | None, ...] = ()

    @classmethod
    def parse(cls, words: list[str]) -> Group:
        tiles: list[Tile] = []
        jokers_as: list[Tile | None] = []
        for word in words:
            head, equals, stands = word.upper().partition("=")
            if head == JOKER_TEXT:
                tiles.append(JOKER)
                if equals and not stands:
                    raise InvalidAction("joker-reading-missing", word=word)
                reading = parse_tile(stands) if stands else None
                if reading is not None and reading.is_joker:
                    raise InvalidAction("joker-as-joker", word=word)
                jokers_as.append(reading)
            elif equals:
                raise InvalidAction("only-joker-stands", word=word)
            else:
                tiles.append(parse_tile(head))
        if not tiles:
            raise InvalidAction("empty-meld")
        designated = tuple(jokers_as) if any(j is not None for j in jokers_as) else ()
        return cls(tuple(tiles), designated)

    @classmethod
    def of(cls, text: str) -> Group:
        return cls.parse(text.split())

    def designations(self) -> tuple[Tile | None, ...] | None:
        return self.jokers_as or None

    def __str__(self) -> str:
        stands: Iterator[Tile | None] | None = iter(self.jokers_as) if self.jokers_as else None
        words = []
        for tile in self.tiles:
            if tile.is_joker and stands is not None:
                as_tile = next(stands)
                words.append(f"J={as_tile}" if as_tile else JOKER_TEXT)
            else:
                words.append(str(tile))
        return " ".join(words)


class Action:
    verb: ClassVar[str]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """The whole table as the player leaves it."""

    verb: ClassVar[str] = "play"
    melds: tuple[Group, ...]

    @classmethod
    def of(cls, *melds: str) -> Play:
        return cls(tuple(Group.of(m) for m in melds))

    def tiles(self) -> Counter[Tile]:
        counted: Counter[Tile] = Counter()
        for group in self.melds:
            counted.update(group.tiles)
        return counted

    def __str__(self) -> str:
        return f"{self.verb} " + f" {MELD_SEPARATOR} ".join(str(g) for g in self.melds)


@dataclass(frozen=True, slots=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Timeout(Action):
    verb: ClassVar[str] = "timeout"

    def __str__(self) -> str:
        return self.verb


VERBS = (Play.verb, Draw.verb, Timeout.verb)


def parse_action(text: str) -> Action:
    """The action written as ``text``; raises :class:`InvalidAction` when it is malformed."""
    if not isinstance(text, str):
        raise InvalidAction("not-text")
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb in (Draw.verb, Timeout.verb):
        if rest:
            raise InvalidAction("takes-nothing", verb=verb)
        return Draw() if verb == Draw.verb else Timeout()
    if verb == Play.verb:
        if not rest:
            raise InvalidAction("play-needs-melds")
        parts = rest.split(MELD_SEPARATOR)
        return Play(tuple(Group.parse(part.split()) for part in parts))
    raise InvalidAction("unknown-verb", verb=verb, verbs=list(VERBS))
