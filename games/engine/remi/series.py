"""A series of Remi games: the core series (:mod:`games.engine.core.series`) bound to Remi,
with the deal passing on and the series ending after ``series_games`` games or at
``target_score`` (rule options)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.protocol import AnyGame
from ..core.series import Series as CoreSeries
from ..core.series import start_series
from .game import GAME
from .rules import Rules


class Series(CoreSeries):
    """``Series(rules, seats, seed, dealer, games, winners)`` for Remi."""

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[str],
        seed: str,
        dealer: int,
        games: list[list[int]] | None = None,
        winners: list[list[int]] | None = None,
        *,
        game: AnyGame = GAME,
    ) -> None:
        super().__init__(
            rules, list(seats), seed, dealer, list(games or []), list(winners or []), game=game
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Series:
        series = CoreSeries.load(GAME, data)
        return cls(
            series.rules, series.seats, series.seed, series.dealer, series.games, series.winners
        )


def new_series(rules: Rules, seats: Sequence[str], seed: int | str) -> Series:
    """A Remi series whose first dealer is drawn at random from the seed."""
    series = start_series(GAME, rules, seats, seed)
    return Series(series.rules, series.seats, series.seed, series.dealer)
