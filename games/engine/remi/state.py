"""The game state: plain data that serialises to JSON and copies cheaply.

Tiles, melds and table melds are immutable values, so a copy only has to copy the containers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..tiles import Tile, format_tiles, parse_tile, parse_tiles
from .melds import Meld
from .rules import Rules

PRELUDE = "prelude"  # doublas and declarations before the first discard
OPEN = "open"  # the first player must open the discard row
DRAW = "draw"  # the player to move must draw or take
PLAY = "play"  # the player may meld, add, swap and must end with a discard
OVER = "over"

GO_OUT = "go-out"  # took the exposed tile: must go out this turn
USE_DISCARD = "use-discard"  # took the previous discard for the first meld: must use it

LOW_LABEL = "low"
HIGH_LABEL = "high"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table with, slot by slot, who laid each tile and, for a Joly, who first
    melded it (that player keeps its 50 points wherever it travels)."""

    meld: Meld
    owners: tuple[int, ...]
    credits: tuple[int | None, ...]
    by: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.meld.kind,
            "tiles": format_tiles(self.meld.tiles),
            "as": format_tiles(self.meld.stands_for),
            "start": self.meld.start,
            "owners": list(self.owners),
            "credits": list(self.credits),
            "by": self.by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableMeld:
        meld = Meld(
            data["kind"],
            tuple(parse_tiles(data["tiles"])),
            tuple(parse_tiles(data["as"])),
            data["start"],
        )
        return cls(meld, tuple(data["owners"]), tuple(data["credits"]), data["by"])


@dataclass(frozen=True, slots=True)
class Offer:
    """A doubla on offer: the pair is secret, the label (high/low/None) public."""

    tile: Tile
    label: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "label": self.label}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Offer:
        return cls(parse_tile(data["tile"]), data["label"])


@dataclass(frozen=True, slots=True)
class Result:
    winner: int | None
    reason: str  # "out" or "wall"
    scores: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...]
    joly_out: bool = False
    all_at_once: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "joly_out": self.joly_out,
            "all_at_once": self.all_at_once,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            data["winner"],
            data["reason"],
            tuple(data["scores"]),
            tuple(dict(b) for b in data["breakdown"]),
            data["joly_out"],
            data["all_at_once"],
        )


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[str]
    seed: str
    dealer: int
    first_player: int
    wall: list[Tile]
    exposed: Tile | None
    racks: list[list[Tile]]
    discards: list[Tile] = field(default_factory=list)
    discarded_by: list[int] = field(default_factory=list)
    melds: list[TableMeld] = field(default_factory=list)
    phase: str = PRELUDE
    turn: int = 0
    turn_number: int = 0
    melded_on: list[int | None] = field(default_factory=list)
    acted: list[bool] = field(default_factory=list)
    ready: list[bool] = field(default_factory=list)
    offers: list[Offer | None] = field(default_factory=list)
    requests: list[int | None] = field(default_factory=list)
    exchanged: list[bool] = field(default_factory=list)
    declared: list[bool] = field(default_factory=list)
    warned: list[bool] = field(default_factory=list)
    exposed_tile: Tile | None = None  # the tile turned up at the deal, for the twin rule
    pending: str | None = None
    pending_tile: Tile | None = None
    checkpoint: dict[str, Any] | None = None
    rebuilds: int = 0
    idle_rebuilds: int = 0  # rebuilds since a tile was last laid on the table
    shuffles: int = 0
    result: Result | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def copy(self) -> State:
        return State(
            rules=self.rules,
            seats=list(self.seats),
            seed=self.seed,
            dealer=self.dealer,
            first_player=self.first_player,
            wall=list(self.wall),
            exposed=self.exposed,
            racks=[list(r) for r in self.racks],
            discards=list(self.discards),
            discarded_by=list(self.discarded_by),
            melds=list(self.melds),
            phase=self.phase,
            turn=self.turn,
            turn_number=self.turn_number,
            melded_on=list(self.melded_on),
            acted=list(self.acted),
            ready=list(self.ready),
            offers=list(self.offers),
            requests=list(self.requests),
            exchanged=list(self.exchanged),
            declared=list(self.declared),
            warned=list(self.warned),
            exposed_tile=self.exposed_tile,
            pending=self.pending,
            pending_tile=self.pending_tile,
            checkpoint=self.checkpoint,
            rebuilds=self.rebuilds,
            idle_rebuilds=self.idle_rebuilds,
            shuffles=self.shuffles,
            result=self.result,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "wall": format_tiles(self.wall),
            "exposed": _tile_or_none(self.exposed),
            "racks": [format_tiles(r) for r in self.racks],
            "discards": format_tiles(self.discards),
            "discarded_by": list(self.discarded_by),
            "melds": [m.to_dict() for m in self.melds],
            "phase": self.phase,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "melded_on": list(self.melded_on),
            "acted": list(self.acted),
            "ready": list(self.ready),
            "offers": [o.to_dict() if o else None for o in self.offers],
            "requests": list(self.requests),
            "exchanged": list(self.exchanged),
            "declared": list(self.declared),
            "warned": list(self.warned),
            "exposed_tile": _tile_or_none(self.exposed_tile),
            "pending": self.pending,
            "pending_tile": _tile_or_none(self.pending_tile),
            "checkpoint": self.checkpoint,
            "rebuilds": self.rebuilds,
            "idle_rebuilds": self.idle_rebuilds,
            "shuffles": self.shuffles,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        return cls(
            rules=Rules.from_dict(data["rules"]),
            seats=list(data["seats"]),
            seed=data["seed"],
            dealer=data["dealer"],
            first_player=data["first_player"],
            wall=parse_tiles(data["wall"]),
            exposed=_parse_or_none(data["exposed"]),
            racks=[parse_tiles(r) for r in data["racks"]],
            discards=parse_tiles(data["discards"]),
            discarded_by=list(data["discarded_by"]),
            melds=[TableMeld.from_dict(m) for m in data["melds"]],
            phase=data["phase"],
            turn=data["turn"],
            turn_number=data["turn_number"],
            melded_on=list(data["melded_on"]),
            acted=list(data["acted"]),
            ready=list(data["ready"]),
            offers=[Offer.from_dict(o) if o else None for o in data["offers"]],
            requests=list(data["requests"]),
            exchanged=list(data["exchanged"]),
            declared=list(data["declared"]),
            warned=list(data["warned"]),
            exposed_tile=_parse_or_none(data["exposed_tile"]),
            pending=data["pending"],
            pending_tile=_parse_or_none(data["pending_tile"]),
            checkpoint=data["checkpoint"],
            rebuilds=data["rebuilds"],
            idle_rebuilds=data["idle_rebuilds"],
            shuffles=data["shuffles"],
            result=Result.from_dict(data["result"]) if data["result"] else None,
        )


def _tile_or_none(tile: Tile | None) -> str | None:
    return None if tile is None else str(tile)


def _parse_or_none(text: str | None) -> Tile | None:
    return None if text is None else parse_tile(text)
