"""A series of games at one table, for any game of the registry: the deal passes on, the
scores add up, and the series ends after a number of games or at a target score (the game's
``series_limits``; a game may decide both otherwise with ``next_dealer`` and
``series_over``).

Game ``n`` of a series is dealt from :func:`game_seed` — the SHA-256 of ``"<series
seed>#<n>"`` — so the whole series replays from its seed, and the seed of a finished game,
which its players may see to check the deal, tells nothing of the series seed or of the deals
still to come.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .protocol import JSON, AnyGame


@dataclass
class Series:
    rules: Any
    seats: list[str]
    seed: str
    dealer: int
    games: list[list[int]] = field(default_factory=list)  # each finished game's scores
    # Each finished game's winners (series stored before they were kept have none).
    winners: list[list[int]] = field(default_factory=list)
    game: AnyGame = field(kw_only=True, repr=False)

    @property
    def totals(self) -> list[int]:
        return [sum(scores[i] for scores in self.games) for i in range(len(self.seats))]

    @property
    def over(self) -> bool:
        return self.game.series_over(self.rules, len(self.seats), self.games, self.winners)

    def next_game(self) -> Any:
        """The next game of the series, dealt by the current dealer."""
        if self.over:
            raise ValueError("The series is over.")
        seed = game_seed(self.seed, len(self.games))
        return self.game.new_game(self.rules, self.seats, seed, dealer=self.dealer)

    def record(self, finished: Any) -> Series:
        """The series after ``finished``: its scores added, the deal passed on (to the next
        seat, or as the game says)."""
        outcome = self.game.outcome(finished)
        if outcome is None:
            raise ValueError("Only a finished game can be recorded.")
        return replace(
            self,
            dealer=self.game.next_dealer(finished, self.dealer, len(self.seats)),
            games=[*self.games, list(outcome.scores)],
            winners=[*self.winners, list(outcome.winners)],
        )

    def to_dict(self) -> JSON:
        return {
            "rules": self.game.dump_rules(self.rules),
            "seats": list(self.seats),
            "seed": self.seed,
            "dealer": self.dealer,
            "games": [list(scores) for scores in self.games],
            "winners": [list(seats) for seats in self.winners],
        }

    @classmethod
    def load(cls, game: AnyGame, data: Mapping[str, Any]) -> Series:
        return cls(
            rules=game.load_rules(data["rules"]),
            seats=list(data["seats"]),
            seed=data["seed"],
            dealer=data["dealer"],
            games=[list(scores) for scores in data["games"]],
            winners=[list(seats) for seats in data.get("winners", ())],
            game=game,
        )


def game_seed(series_seed: str, number: int) -> str:
    """The seed of game ``number`` (from 0) of a series: one-way, so revealing it (once the
    game is over) cannot be turned back into the series seed."""
    return hashlib.sha256(f"{series_seed}#{number}".encode()).hexdigest()


def start_series(game: AnyGame, rules: Any, seats: Sequence[str], seed: int | str) -> Series:
    """A series whose first dealer is drawn from the seed."""
    dealer = random.Random(f"{seed}#dealer").randrange(len(seats))
    return Series(rules, list(seats), str(seed), dealer, game=game)
