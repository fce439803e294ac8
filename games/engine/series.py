"""A series of games: the deal passes on, totals are kept, and the series ends after a set
number of games or when someone reaches the target score (rule options)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .remi import new_game
from .rules import Rules
from .state import OVER, State


@dataclass(slots=True)
class Series:
    rules: Rules
    seats: list[str]
    seed: str
    dealer: int
    games: list[list[int]] = field(default_factory=list)  # scores per game

    @property
    def totals(self) -> list[int]:
        return [sum(game[i] for game in self.games) for i in range(len(self.seats))]

    @property
    def over(self) -> bool:
        rules = self.rules
        if rules.series_games is not None and len(self.games) >= rules.series_games:
            return True
        return rules.target_score is not None and any(t >= rules.target_score for t in self.totals)

    def next_game(self) -> State:
        """The next game of the series, dealt by the current dealer."""
        if self.over:
            raise ValueError("The series is over.")
        return new_game(self.rules, self.seats, f"{self.seed}#{len(self.games)}", self.dealer)

    def record(self, finished: State) -> Series:
        """The series after ``finished``: its scores added, the deal passed to the next seat."""
        if finished.phase != OVER or finished.result is None:
            raise ValueError("Only a finished game can be recorded.")
        return Series(
            self.rules,
            list(self.seats),
            self.seed,
            (self.dealer + 1) % len(self.seats),
            [*self.games, list(finished.result.scores)],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "games": [list(g) for g in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Series:
        return cls(
            Rules.from_dict(data["rules"]),
            list(data["seats"]),
            data["seed"],
            data["dealer"],
            [list(g) for g in data["games"]],
        )


def new_series(rules: Rules, seats: Sequence[str], seed: int | str) -> Series:
    """A series whose first dealer is drawn at random from the seed."""
    dealer = random.Random(f"{seed}#dealer").randrange(len(seats))
    return Series(rules, list(seats), str(seed), dealer)
