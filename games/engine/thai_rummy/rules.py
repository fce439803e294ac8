"""Thai Rummy's rule options as data (source document 003).

The default is the document as written, read as docs/rules.md ("Thai Rummy") says where it is
unclear; the options are the other readings the settled readings list, and the 3-4 player
game the document mentions ("deal three fewer cards per extra player").  The meld rules are
fixed: aces always high, 2s always low, sets of 3-4, runs of 3 or more.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..card_melds import ACES_HIGH
from ..core.options import option_names, option_values
from ..errors import InvalidAction

TWO_PLAYER_HAND = 13
FEWER_PER_EXTRA_PLAYER = 3
GAME_TARGET = 500  # reached by a player who goes out wins the game
GAME_FLOOR = -500  # a total at or below it loses the game at once


@dataclass(frozen=True, slots=True)
class Rules:
    # What the shared meld code (card_melds, card_planner) asks of a game's rules: not
    # options in Thai Rummy, so class constants rather than fields.
    aces: ClassVar[str] = ACES_HIGH
    long_melds: ClassVar[bool] = True
    jokers: ClassVar[int] = 0

    # "Score doubled" for a player who showed no meld before the final turn: the +50 for
    # going out is doubled with the rest (False: the bonus is added after the doubling).
    double_out_bonus: bool = True
    # Laying off on a meld shown already counts as showing a meld (no more doubling).
    layoff_shows: bool = True
    turn_seconds: int | None = None
    # A game ends at ``target_score`` for a player who goes out, or when a total falls to
    # ``-target_score``; ``series_games`` caps the number of hands (None: no cap).  With no
    # target (a tournament's match of so many hands) only the number of hands counts; with
    # neither, a match is one hand.
    target_score: int | None = GAME_TARGET
    series_games: int | None = None

    def __post_init__(self) -> None:
        for name in ("double_out_bonus", "layoff_shows"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidAction("bad-option", option=name, allowed=[True, False])
        _within("turn_seconds", self.turn_seconds, 1, None, optional=True)
        _within("target_score", self.target_score, 50, 100_000, optional=True)
        _within("series_games", self.series_games, 1, None, optional=True)

    @staticmethod
    def hand_size_for(players: int) -> int:
        """13 cards for two players, three fewer for each extra player."""
        return TWO_PLAYER_HAND - FEWER_PER_EXTRA_PLAYER * (players - 2)

    @property
    def floor_score(self) -> int | None:
        return None if self.target_score is None else -self.target_score

    def to_dict(self) -> dict[str, Any]:
        return option_values(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data).difference(option_names(cls))
        if unknown:
            raise InvalidAction("unknown-options", options=sorted(unknown))
        return cls(**data)

    def with_options(self, **options: Any) -> Rules:
        return replace(self, **options)


def _within(
    option: str, value: object, least: int, most: int | None, *, optional: bool = False
) -> None:
    if value is None and optional:
        return
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < least
        or (most is not None and value > most)
    ):
        raise InvalidAction("bad-option", option=option, least=least, most=most)


THAI_RUMMY = Rules()

PRESETS: dict[str, Rules] = {
    "thai-rummy": THAI_RUMMY,
    "bonus-not-doubled": replace(THAI_RUMMY, double_out_bonus=False),
    "layoff-does-not-show": replace(THAI_RUMMY, layoff_shows=False),
    "thai-rummy-timer": replace(THAI_RUMMY, turn_seconds=60),
}

PRESET_LABELS: dict[str, str] = {
    "thai-rummy": "Thai Rummy (game to 500)",
    "bonus-not-doubled": "The +50 for going out is never doubled",
    "layoff-does-not-show": "Laying off does not count as showing a meld",
    "thai-rummy-timer": "Thai Rummy with a one-minute timer",
}
