"""Player actions and their compact notation.

    draw                      draw from the wall
    take                      take the previous player's discard
    pick 5 B7 B5 B6           take row tile 5 (B7), meld it with B5 B6, take the tiles after it
    exposed                   take the exposed tile to go out
    meld R1 R2 R3 | K5 B5 J   lay one or more new melds (``J=R4`` fixes what a Joly stands for)
    add 3 R4 J=R5             add tiles to table meld 3
    swap 2 B8 into J K8 Y8    lay B8 in place of the Joly of meld 2 and meld that Joly anew
    discard R5                end the turn
    declare                   declare the twin of the exposed tile
    doubla R5 high            offer a doubla (the pair stays secret; the label is public)
    exchange 2                exchange doublas with seat 2 (both must ask)
    ready                     done with doublas
    undo                      put back the exposed tile or the discard taken for a first meld

``parse_action(str(a)) == a`` for every action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core.numbers import parse_natural
from ..errors import InvalidAction
from ..tiles import JOKER, JOKER_TEXT, Tile, parse_tile


@dataclass(frozen=True, slots=True)
class Group:
    """Tiles for one meld as a player wrote them; ``jokers_as`` lines up with the Jolys."""

    tiles: tuple[Tile, ...]
    jokers_as: tuple[Tile | None, ...] = ()

    @classmethod
    def parse(cls, words: list[str]) -> Group:
        tiles: list[Tile] = []
        jokers_as: list[Tile | None] = []
        for word in words:
            head, _, stands = word.upper().partition("=")
            if head == JOKER_TEXT:
                tiles.append(JOKER)
                jokers_as.append(parse_tile(stands) if stands else None)
            elif stands:
                raise InvalidAction("only-joly-stands", word=word)
            else:
                tiles.append(parse_tile(head))
        if not tiles:
            raise InvalidAction("no-tiles")
        designated = tuple(jokers_as) if any(j is not None for j in jokers_as) else ()
        return cls(tuple(tiles), designated)

    @classmethod
    def of(cls, text: str) -> Group:
        return cls.parse(text.split())

    def designations(self) -> tuple[Tile | None, ...] | None:
        return self.jokers_as or None

    def __str__(self) -> str:
        words = []
        stands = iter(self.jokers_as) if self.jokers_as else None
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
class Draw(Action):
    verb: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class TakeDiscard(Action):
    verb: ClassVar[str] = "take"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Pick(Action):
    verb: ClassVar[str] = "pick"
    index: int
    group: Group  # the row tile first, then two tiles from the rack

    def __str__(self) -> str:
        return f"pick {self.index} {self.group}"


@dataclass(frozen=True, slots=True)
class TakeExposed(Action):
    verb: ClassVar[str] = "exposed"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class MeldAction(Action):
    verb: ClassVar[str] = "meld"
    groups: tuple[Group, ...]

    def __str__(self) -> str:
        return "meld " + " | ".join(str(g) for g in self.groups)


@dataclass(frozen=True, slots=True)
class AddToMeld(Action):
    verb: ClassVar[str] = "add"
    meld: int
    group: Group

    def __str__(self) -> str:
        return f"add {self.meld} {self.group}"


@dataclass(frozen=True, slots=True)
class SwapJoly(Action):
    verb: ClassVar[str] = "swap"
    meld: int
    replacement: tuple[Tile, ...]
    group: Group  # the new meld: the freed Joly and tiles from the rack

    def __str__(self) -> str:
        tiles = " ".join(str(t) for t in self.replacement)
        return f"swap {self.meld} {tiles} into {self.group}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    verb: ClassVar[str] = "discard"
    tile: Tile

    def __str__(self) -> str:
        return f"discard {self.tile}"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    verb: ClassVar[str] = "declare"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class OfferDoubla(Action):
    verb: ClassVar[str] = "doubla"
    tile: Tile
    label: str | None = None

    def __str__(self) -> str:
        return f"doubla {self.tile}" + (f" {self.label}" if self.label else "")


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    verb: ClassVar[str] = "exchange"
    seat: int

    def __str__(self) -> str:
        return f"exchange {self.seat}"


@dataclass(frozen=True, slots=True)
class Ready(Action):
    verb: ClassVar[str] = "ready"

    def __str__(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Undo(Action):
    verb: ClassVar[str] = "undo"

    def __str__(self) -> str:
        return self.verb


_BARE = {cls.verb: cls for cls in (Draw, TakeDiscard, TakeExposed, Declare, Ready, Undo)}


def _number(word: str, what: str) -> int:
    """``word`` as a number; ``what`` names the number wanted (meld, row, seat)."""
    number = parse_natural(word)
    if number is None:
        raise InvalidAction("not-a-number", wanted=what, word=word)
    return number


def parse_action(text: str) -> Action:
    """Read an action from its notation; raise :class:`InvalidAction` on anything malformed."""
    if not isinstance(text, str):
        raise InvalidAction("not-text")
    words = text.strip().split()
    if not words:
        raise InvalidAction("empty")
    verb, args = words[0].lower(), words[1:]
    if verb in _BARE:
        if args:
            raise InvalidAction("takes-nothing", verb=verb)
        return _BARE[verb]()
    if verb == "discard":
        if len(args) != 1:
            raise InvalidAction("discard-one")
        return Discard(parse_tile(args[0]))
    if verb == "meld":
        chunks = " ".join(args).split("|")
        return MeldAction(tuple(Group.parse(chunk.split()) for chunk in chunks))
    if verb == "add":
        if len(args) < 2:
            raise InvalidAction("add-form")
        return AddToMeld(_number(args[0], "meld"), Group.parse(args[1:]))
    if verb == "pick":
        if len(args) != 4:
            raise InvalidAction("pick-form")
        return Pick(_number(args[0], "row"), Group.parse(args[1:]))
    if verb == "swap":
        lowered = [a.lower() for a in args]
        if len(args) < 3 or "into" not in lowered:
            raise InvalidAction("swap-form")
        cut = lowered.index("into")
        replacement = tuple(parse_tile(w) for w in args[1:cut])
        if not replacement:
            raise InvalidAction("swap-replacement")
        return SwapJoly(_number(args[0], "meld"), replacement, Group.parse(args[cut + 1 :]))
    if verb == "doubla":
        if not 1 <= len(args) <= 2:
            raise InvalidAction("doubla-form")
        label = args[1].lower() if len(args) == 2 else None
        if label not in (None, "high", "low"):
            raise InvalidAction("doubla-label-form", label=label)
        return OfferDoubla(parse_tile(args[0]), label)
    if verb == "exchange":
        if len(args) != 1:
            raise InvalidAction("exchange-form")
        return Exchange(_number(args[0], "seat"))
    raise InvalidAction("unknown-verb", verb=verb)
