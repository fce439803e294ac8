"""The state of one hand of Thai Rummy: plain data that serialises to JSON and copies cheaply
(cards and melds are immutable values, so a copy only copies the containers)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from ..card_melds import Meld
from ..cards import Card, format_cards, parse_card, parse_cards
from .rules import Rules

# Phases of a turn.
DRAW = "draw"  # the turn starts by taking from the pile, drawing, or (stock gone) passing
PLAY = "play"  # melds, lay-offs, then the discard

# How a hand ended.
OUT = "out"  # a player melded every card but one and discarded it face down
PASSED = "passed"  # the stock was gone and every player passed in a row


@dataclass(frozen=True, slots=True)
class Result:
    """Per seat: ``shown`` the points of the cards displayed in front of the player,
    ``in_hand`` the points left in hand (subtracted only by the losers of a hand someone
    went out of, and by everyone when all passed), ``doubled`` whether the score was
    doubled, ``penalties`` the -50s (discards that fitted a meld, and a last discard the
    winner went out on), ``scores`` the hand's scores."""

    reason: str
    winner: int | None
    shown: tuple[int, ...]
    in_hand: tuple[int, ...]
    doubled: tuple[bool, ...]
    penalties: tuple[int, ...]
    scores: tuple[int, ...]
    bonus: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "winner": self.winner,
            "shown": list(self.shown),
            "in_hand": list(self.in_hand),
            "doubled": list(self.doubled),
            "penalties": list(self.penalties),
            "scores": list(self.scores),
            "bonus": self.bonus,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            data["reason"],
            data["winner"],
            tuple(data["shown"]),
            tuple(data["in_hand"]),
            tuple(data["doubled"]),
            tuple(data["penalties"]),
            tuple(data["scores"]),
            data["bonus"],
        )


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[str]
    seed: str
    dealer: int
    stock: list[Card]  # drawn from the end
    discard: list[Card]  # spread face up; the top card is the last
    # Who threw each card of the pile (None: the card turned up from the stock at the deal).
    discarded_by: list[int | None]
    hands: list[list[Card]]
    table: list[Meld] = field(default_factory=list)
    # The cards each player has displayed in front of them (melds and lay-offs): they score.
    displayed: list[list[Card]] = field(default_factory=list)
    turn: int = 0
    turn_number: int = 0
    phase: str = DRAW
    # This turn: the seat whose discard was taken when the player took only the pile's top
    # card (for the -50 if the player goes out on it); None otherwise.
    took_top_of: int | None = None
    # Whether each player has shown a meld (by the rules, a lay-off may count): now, and
    # before the turn being played (the doubling rule spares the final turn).
    shown: list[bool] = field(default_factory=list)
    shown_before: list[bool] = field(default_factory=list)
    # How many discards that fitted a meld on the table each player made (-50 each).
    penalties: list[int] = field(default_factory=list)
    passes: int = 0  # players who passed in a row (the stock gone)
    face_down: Card | None = None  # the winner's last card, discarded face down
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
        copied.discarded_by = list(self.discarded_by)
        copied.hands = [list(h) for h in self.hands]
        copied.table = list(self.table)
        copied.displayed = [list(d) for d in self.displayed]
        copied.shown = list(self.shown)
        copied.shown_before = list(self.shown_before)
        copied.penalties = list(self.penalties)
        return copied

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "stock": format_cards(self.stock),
            "discard": format_cards(self.discard),
            "discarded_by": list(self.discarded_by),
            "hands": [format_cards(h) for h in self.hands],
            "table": [m.to_text() for m in self.table],
            "displayed": [format_cards(d) for d in self.displayed],
            "turn": self.turn,
            "turn_number": self.turn_number,
            "phase": self.phase,
            "took_top_of": self.took_top_of,
            "shown": list(self.shown),
            "shown_before": list(self.shown_before),
            "penalties": list(self.penalties),
            "passes": self.passes,
            "face_down": str(self.face_down) if self.face_down else None,
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
            discarded_by=list(data["discarded_by"]),
            hands=[parse_cards(h) for h in data["hands"]],
            table=[Meld.from_text(m) for m in data["table"]],
            displayed=[parse_cards(d) for d in data["displayed"]],
            turn=data["turn"],
            turn_number=data["turn_number"],
            phase=data["phase"],
            took_top_of=data["took_top_of"],
            shown=list(data["shown"]),
            shown_before=list(data["shown_before"]),
            penalties=list(data["penalties"]),
            passes=data["passes"],
            face_down=parse_card(data["face_down"]) if data["face_down"] else None,
            shuffles=data["shuffles"],
            result=Result.from_dict(data["result"]) if data["result"] else None,
        )
