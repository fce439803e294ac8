"""Pocket Rummy's rules: two players, twenty tiles (red and blue, 1 to 10), three in hand.

A turn is a draw from the stock, then a discard.  A player whose three tiles make a run of
one colour after discarding goes out and scores the other hand's total; when the stock is
empty at a draw, nobody goes out and each player loses their own hand's total.  Pure Python
on the site's engine protocol, written only with what ``games.engine.core`` offers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from games.engine.core.errors import IllegalAction, InvalidAction, NotYourTurn
from games.engine.core.events import Event
from games.engine.core.hidden import deal_hidden_again
from games.engine.core.protocol import (
    JSON,
    Deal,
    GameEngine,
    Outcome,
    rng_for,
    seat_names,
)
from games.engine.core.review import Reviewer

COLOURS = ("R", "B")
NUMBERS = range(1, 11)
DRAW, DISCARD, OVER = "draw", "discard", "over"


def all_tiles() -> list[str]:
    return [f"{colour}{number}" for colour in COLOURS for number in NUMBERS]


def value(tile: str) -> int:
    return int(tile[1:])


def is_run(hand: Sequence[str]) -> bool:
    if len({tile[0] for tile in hand}) != 1:
        return False
    numbers = sorted(value(tile) for tile in hand)
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


@dataclass(frozen=True, slots=True)
class Rules:
    hand_size: int = 3
    # A match of several games (a tournament's) sets these, as for every game of the site.
    series_games: int | None = 1
    target_score: int | None = None

    def to_dict(self) -> JSON:
        return {
            "hand_size": self.hand_size,
            "series_games": self.series_games,
            "target_score": self.target_score,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data) - {"hand_size", "series_games", "target_score"}
        if unknown:
            raise InvalidAction("rules.unknown", names=sorted(unknown))
        return cls(
            hand_size=int(data.get("hand_size", 3)),
            series_games=data.get("series_games", 1),
            target_score=data.get("target_score"),
        )


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Discard:
    tile: str

    def __str__(self) -> str:
        return f"discard {self.tile}"


Action = Draw | Discard


def parse_action(text: str) -> Action:
    words = str(text).split()
    if words == ["draw"]:
        return Draw()
    if len(words) == 2 and words[0] == "discard" and words[1] in all_tiles():
        return Discard(words[1])
    raise InvalidAction("notation.unreadable", text=str(text)[:40])


@dataclass
class State:
    rules: Rules
    seats: list[str]
    seed: str
    dealer: int
    hands: list[list[str]]
    stock: list[str]  # drawn from its front
    discards: list[str] = field(default_factory=list)
    turn: int = 0
    turn_number: int = 0
    phase: str = DRAW
    shuffles: int = 1
    winner: int | None = None
    scores: tuple[int, ...] | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def copy(self) -> State:
        return replace(
            self,
            seats=list(self.seats),
            hands=[list(hand) for hand in self.hands],
            stock=list(self.stock),
            discards=list(self.discards),
        )

    def to_dict(self) -> JSON:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "hands": [list(hand) for hand in self.hands],
            "stock": list(self.stock),
            "discards": list(self.discards),
            "turn": self.turn,
            "turn_number": self.turn_number,
            "phase": self.phase,
            "shuffles": self.shuffles,
            "winner": self.winner,
            "scores": None if self.scores is None else list(self.scores),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        scores = data["scores"]
        return cls(
            rules=Rules.from_dict(dict(data["rules"])),
            seats=list(data["seats"]),
            seed=data["seed"],
            dealer=data["dealer"],
            hands=[list(hand) for hand in data["hands"]],
            stock=list(data["stock"]),
            discards=list(data["discards"]),
            turn=data["turn"],
            turn_number=data["turn_number"],
            phase=data["phase"],
            shuffles=data["shuffles"],
            winner=data["winner"],
            scores=None if scores is None else tuple(scores),
        )


def new_game(
    rules: Rules, seats: int | Sequence[str], seed: int | str, dealer: int | None = None
) -> State:
    names = seat_names(seats)
    rng = rng_for(str(seed), 0)
    if dealer is None:
        dealer = rng.randrange(len(names))
    tiles = all_tiles()
    rng.shuffle(tiles)
    size = rules.hand_size
    hands = [sorted(tiles[i * size : (i + 1) * size]) for i in range(len(names))]
    return State(
        rules=rules,
        seats=names,
        seed=str(seed),
        dealer=dealer,
        hands=hands,
        stock=tiles[len(names) * size :],
        turn=(dealer + 1) % len(names),
    )


def _finish(state: State, winner: int | None) -> None:
    totals = [sum(value(tile) for tile in hand) for hand in state.hands]
    if winner is None:
        state.scores = tuple(-total for total in totals)
    else:
        won = sum(total for seat, total in enumerate(totals) if seat != winner)
        state.scores = tuple(
            won if seat == winner else -totals[seat] for seat in range(len(totals))
        )
    state.winner = winner
    state.phase = OVER


def apply(state: State, seat: int, action: Action | str) -> tuple[State, list[Event]]:
    if isinstance(action, str):
        action = parse_action(action)
    if state.phase == OVER:
        raise IllegalAction("game.over")
    if seat != state.turn:
        raise NotYourTurn(state.turn)
    new = state.copy()
    events: list[Event] = []
    if isinstance(action, Draw):
        if state.phase != DRAW:
            raise IllegalAction("turn.draw_first_done")
        tile = new.stock.pop(0)
        new.hands[seat].append(tile)
        new.hands[seat].sort()
        new.phase = DISCARD
        events.append(Event("draw", seat, secret={"tile": tile}, to=(seat,)))
        return new, events
    if state.phase != DISCARD:
        raise IllegalAction("turn.draw_first")
    if action.tile not in new.hands[seat]:
        raise IllegalAction("discard.not_in_hand", tile=action.tile)
    new.hands[seat].remove(action.tile)
    new.discards.append(action.tile)
    events.append(Event("discard", seat, {"tile": action.tile}))
    new.turn_number += 1
    if is_run(new.hands[seat]):
        _finish(new, seat)
        events.append(Event("out", seat))
    elif not new.stock:
        _finish(new, None)
        events.append(Event("wall"))
    else:
        new.turn = (seat + 1) % new.players
        new.phase = DRAW
    return new, events


def legal_verbs(state: State, seat: int | None) -> frozenset[str]:
    if state.phase == OVER or seat != state.turn:
        return frozenset()
    return frozenset({state.phase})


def player_view(state: State, seat: int | None) -> JSON:
    over = state.phase == OVER
    return {
        "names": list(state.seats),
        "seat": seat,
        "hand": list(state.hands[seat]) if seat is not None else None,
        "hand_counts": [len(hand) for hand in state.hands],
        "stock_count": len(state.stock),
        "discards": list(state.discards),
        "turn": state.turn,
        "dealer": state.dealer,
        "phase": state.phase,
        "can": sorted(legal_verbs(state, seat)),
        "winner": state.winner,
        "scores": None if state.scores is None else list(state.scores),
        "final_hands": [list(hand) for hand in state.hands] if over else None,
    }


def _best_discard(hand: Sequence[str]) -> str:
    # Keep the two tiles nearest to a run of one colour; throw the other.
    def kept_worth(tile: str) -> tuple[int, int]:
        rest = [t for t in hand if t != tile]
        if is_run(rest):
            return (100, 0)
        near = rest[0][0] == rest[1][0] and abs(value(rest[0]) - value(rest[1])) <= 2
        return (int(near), value(tile))

    return max(hand, key=kept_worth)


class PocketRummyGame(GameEngine[State, Action, Rules, Event]):
    key = "pocket-rummy"
    label = "Pocket Rummy"
    min_seats = 2
    max_seats = 2
    presets: ClassVar[Mapping[str, Rules]] = {"pocket-rummy": Rules()}
    preset_labels: ClassVar[Mapping[str, str]] = {"pocket-rummy": "Pocket Rummy"}
    bot_levels = ("easy",)
    engine_version = 1
    state_type = State
    rules_type = Rules
    new_game = staticmethod(new_game)
    apply = staticmethod(apply)
    parse_action = staticmethod(parse_action)
    legal = staticmethod(legal_verbs)
    player_view = staticmethod(player_view)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER or state.scores is None:
            return None
        return Outcome(
            termination="wall" if state.winner is None else "out",
            winners=() if state.winner is None else (state.winner,),
            scores=state.scores,
            breakdown=tuple({"total": score} for score in state.scores),
        )

    def unfinished_scores(self, state: State) -> tuple[int, ...]:
        if state.scores is not None:
            return state.scores
        return tuple(-sum(value(tile) for tile in hand) for hand in state.hands)

    def timeout_action(self, state: State, seat: int) -> Action | None:
        if state.phase == OVER or seat != state.turn:
            return None
        if state.phase == DRAW:
            return Draw()
        return Discard(max(state.hands[seat], key=value))

    def choose(self, view: JSON, level: str, rng: random.Random) -> Action:
        if view["phase"] == DRAW:
            return Draw()
        return Discard(_best_discard(view["hand"]))

    def random_action(self, state: State, seat: int, rng: random.Random) -> Action:
        if state.phase == DRAW:
            return Draw()
        return Discard(rng.choice(state.hands[seat]))

    def reviewer(self) -> Reviewer:
        from .review import PocketReviewer

        return PocketReviewer()

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        new = state.copy()
        new.hands, new.stock = deal_hidden_again(state.hands, state.stock, seat, rng)
        return new

    def deal_of(self, state: State) -> Deal:
        return Deal(
            hands=tuple(tuple(hand) for hand in state.hands),
            face_up=(),
            stock=tuple(state.stock),
            dealer=state.dealer,
        )


GAME = PocketRummyGame()
