"""The state of one hand of Basic Rummy: plain data that serialises to JSON and copies cheaply
(cards and melds are immutable values, so a copy only copies the containers)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..card_melds import Meld
from ..cards import Card, format_cards, parse_card, parse_cards
from .rules import Rules

# Phases of a turn.
DRAW = "draw"  # the turn starts by drawing
PLAY = "play"  # melds, lay-offs, then the discard

# How a hand ended.
OUT = "out"  # a player got rid of every card
STOCK_TWICE = "stock-twice"  # the stock ran out once more than the rules allow: stalemate
STUCK = "stuck"  # no player can ever finish: stalemate
BLOCKED = "blocked"  # block rummy: the stock went through once with nobody out


@dataclass(frozen=True, slots=True)
class Result:
    """``hand_values`` are the points left in each hand; ``scores`` what each seat gains
    (or, in block rummy, loses); ``rummy`` whether the winner went rummy."""

    reason: str
    winner: int | None
    hand_values: tuple[int, ...]
    scores: tuple[int, ...]
    rummy: bool = False
    bonus: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winner": self.winner,
            "hand_values": list(self.hand_values),
            "scores": list(self.scores),
            "rummy": self.rummy,
            "bonus": self.bonus,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            data["reason"],
            data["winner"],
            tuple(data["hand_values"]),
            tuple(data["scores"]),
            data["rummy"],
            data["bonus"],
        )


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[str]
    seed: str
    dealer: int
    stock: list[Card]  # drawn from the end
    discard: list[Card]  # the top card is the last
    hands: list[list[Card]]
    table: list[Meld] = field(default_factory=list)
    turn: int = 0
    turn_number: int = 0
    phase: str = DRAW
    taken: Card | None = None  # the card just taken from the pile: not to be discarded
    melds_this_turn: int = 0
    placed_this_turn: bool = False
    # Melded or laid off in an earlier turn (going rummy needs none); melded at all (for
    # the lay-off-after-own-meld variation); turns each seat has finished.
    played_before: list[bool] = field(default_factory=list)
    melded: list[bool] = field(default_factory=list)
    turns_taken: list[int] = field(default_factory=list)
    restocks: int = 0
    shuffles: int = 0
    result: Result | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def top(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def copy(self) -> State:
        copied = State(**{f.name: getattr(self, f.name) for f in fields(self)})
        copied.seats = list(self.seats)
        copied.stock = list(self.stock)
        copied.discard = list(self.discard)
        copied.hands = [list(h) for h in self.hands]
        copied.table = list(self.table)
        copied.played_before = list(self.played_before)
        copied.melded = list(self.melded)
        copied.turns_taken = list(self.turns_taken)
        return copied

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "stock": format_cards(self.stock),
            "discard": format_cards(self.discard),
            "hands": [format_cards(h) for h in self.hands],
            "table": [m.to_text() for m in self.table],
            "turn": self.turn,
            "turn_number": self.turn_number,
            "phase": self.phase,
            "taken": str(self.taken) if self.taken else None,
            "melds_this_turn": self.melds_this_turn,
            "placed_this_turn": self.placed_this_turn,
            "played_before": list(self.played_before),
            "melded": list(self.melded),
            "turns_taken": list(self.turns_taken),
            "restocks": self.restocks,
            "shuffles": self.shuffles,
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        return cls(
            rules=Rules.from_dict(dict(data["rules"])),
            seats=list(data["seats"]),
            seed=data["seed"],
            dealer=data["dealer"],
            stock=parse_cards(data["stock"]),
            discard=parse_cards(data["discard"]),
            hands=[parse_cards(h) for h in data["hands"]],
            table=[Meld.from_text(m) for m in data["table"]],
            turn=data["turn"],
            turn_number=data["turn_number"],
            phase=data["phase"],
            taken=parse_card(data["taken"]) if data["taken"] else None,
            melds_this_turn=data["melds_this_turn"],
            placed_this_turn=data["placed_this_turn"],
            played_before=list(data["played_before"]),
            melded=list(data["melded"]),
            turns_taken=list(data["turns_taken"]),
            restocks=data["restocks"],
            shuffles=data["shuffles"],
            result=Result.from_dict(data["result"]) if data["result"] else None,
        )
