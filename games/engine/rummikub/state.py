"""The state of one game: plain data that serialises to JSON and copies cheaply.

Tiles and melds are immutable values, so a copy only has to copy the containers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..tiles import JOKER, Tile, format_tiles, parse_tile, parse_tiles
from .melds import RUN, Meld
from .rules import Rules

# How a game ended.
OUT = "out"  # a player played their last tile
BLOCKED = "blocked"  # the stock was empty and a full round passed with no tile played
STOCK_OUT = "stock-out"  # the stock was empty when a player had to draw (option end-now)


def meld_to_text(meld: Meld) -> str:
    return f"{meld.kind} {meld.notation()}"


def meld_from_text(text: str) -> Meld:
    """The meld ``meld_to_text`` wrote; trusted data, so it is not classified again."""
    kind, *words = text.split()
    tiles: list[Tile] = []
    stands: list[Tile] = []
    for word in words:
        head, _, reading = word.partition("=")
        tile = parse_tile(head)
        tiles.append(tile)
        stands.append(parse_tile(reading) if tile.is_joker else tile)
    if kind not in (RUN, "set") or JOKER in stands:
        raise ValueError(f"not a stored meld: {text!r}")
    return Meld(kind, tuple(tiles), tuple(stands))


@dataclass(frozen=True, slots=True)
class Result:
    """How the game ended.  ``winner`` is None when nobody went out and the lowest rack total
    is shared.  ``rack_totals`` are the racks' values at the end (a joker counts
    ``rules.joker_value``); ``scores`` what each seat gains or loses."""

    reason: str
    winner: int | None
    rack_totals: tuple[int, ...]
    scores: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winner": self.winner,
            "rack_totals": list(self.rack_totals),
            "scores": list(self.scores),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            data["reason"], data["winner"], tuple(data["rack_totals"]), tuple(data["scores"])
        )


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[str]
    seed: str
    stock: list[Tile]  # drawn from the end
    racks: list[list[Tile]]
    table: list[Meld] = field(default_factory=list)
    turn: int = 0
    first_player: int = 0
    # The tiles each seat drew to decide who starts, round by round (public; empty when the
    # first player is chosen at random).
    opening_draws: list[list[str | None]] = field(default_factory=list)
    turn_number: int = 0
    melded: list[bool] = field(default_factory=list)  # made their first melds
    # Turns in a row in which nobody played a tile while the stock was empty.
    passes: int = 0
    shuffles: int = 0
    result: Result | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.result is not None

    def copy(self) -> State:
        return State(
            rules=self.rules,
            seats=list(self.seats),
            seed=self.seed,
            stock=list(self.stock),
            racks=[list(r) for r in self.racks],
            table=list(self.table),
            turn=self.turn,
            first_player=self.first_player,
            opening_draws=[list(r) for r in self.opening_draws],
            turn_number=self.turn_number,
            melded=list(self.melded),
            passes=self.passes,
            shuffles=self.shuffles,
            result=self.result,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "stock": format_tiles(self.stock),
            "racks": [format_tiles(r) for r in self.racks],
            "table": [meld_to_text(m) for m in self.table],
            "turn": self.turn,
            "first_player": self.first_player,
            "opening_draws": [list(r) for r in self.opening_draws],
            "turn_number": self.turn_number,
            "melded": list(self.melded),
            "passes": self.passes,
            "shuffles": self.shuffles,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        return cls(
            rules=Rules.from_dict(data["rules"]),
            seats=list(data["seats"]),
            seed=data["seed"],
            stock=parse_tiles(data["stock"]),
            racks=[parse_tiles(r) for r in data["racks"]],
            table=[meld_from_text(m) for m in data["table"]],
            turn=data["turn"],
            first_player=data["first_player"],
            opening_draws=[list(r) for r in data["opening_draws"]],
            turn_number=data["turn_number"],
            melded=list(data["melded"]),
            passes=data["passes"],
            shuffles=data["shuffles"],
            result=Result.from_dict(data["result"]) if data["result"] else None,
        )
