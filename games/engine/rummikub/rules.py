"""Rummikub-style rule options as data, with presets named after the games that use them.

The option names are shared by the engine, the solver and the lobby form; see docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.options import option_names, option_values
from ..errors import InvalidAction

# How a joker already on the table may be used elsewhere (document 004, "Using Jokers").
JOKER_FREE = "free"  # rearranged like any tile
JOKER_MATCHING = "matching"  # only once its matching tile has replaced it
JOKER_MATCHING_FROM_RACK = "matching-from-rack"  # ... and that tile comes from the rack
JOKER_REPLACEMENTS = (JOKER_FREE, JOKER_MATCHING, JOKER_MATCHING_FROM_RACK)

# Who opens: everyone draws a tile and the highest number starts, or a random seat.
START_HIGHEST_DRAW = "highest-draw"
START_RANDOM = "random"
STARTING_PLAYERS = (START_HIGHEST_DRAW, START_RANDOM)

# The stock runs out (document 004 is silent; see docs/rules.md).
STOCK_PLAY_ON = "play-on"  # turns go on without drawing until a full round passes with no play
STOCK_END_NOW = "end-now"  # the game ends when a player would have to draw from an empty stock
STOCK_EXHAUSTED = (STOCK_PLAY_ON, STOCK_END_NOW)


@dataclass(frozen=True, slots=True)
class Rules:
    first_meld_minimum: int = 30
    starting_player: str = START_HIGHEST_DRAW
    joker_replacement: str = JOKER_FREE
    # No tile may leave a meld that holds a joker until that joker is replaced.
    joker_locks_meld: bool = False
    # A replaced joker may only start a new meld made with the player's own rack tiles.
    freed_joker_own_meld: bool = False
    penalty_tiles: int = 3
    joker_value: int = 30
    rack_size: int = 14
    stock_exhausted: str = STOCK_PLAY_ON
    # Seconds a player has for a turn (None: no timer).  The site keeps the clock; when it
    # runs out it submits the game's timeout action, which is the penalty draw.
    turn_seconds: int | None = None
    # A match (kept above the engine by games.engine.core.series): this many games, or until
    # someone's total reaches the target (either may be None; document 004 names both).
    series_games: int | None = 1
    target_score: int | None = None

    def __post_init__(self) -> None:
        if self.first_meld_minimum < 0:
            raise InvalidAction("bad-option", option="first_meld_minimum")
        if self.starting_player not in STARTING_PLAYERS:
            raise InvalidAction(
                "bad-option", option="starting_player", allowed=list(STARTING_PLAYERS)
            )
        if self.joker_replacement not in JOKER_REPLACEMENTS:
            raise InvalidAction(
                "bad-option", option="joker_replacement", allowed=list(JOKER_REPLACEMENTS)
            )
        if self.stock_exhausted not in STOCK_EXHAUSTED:
            raise InvalidAction(
                "bad-option", option="stock_exhausted", allowed=list(STOCK_EXHAUSTED)
            )
        if self.penalty_tiles < 0:
            raise InvalidAction("bad-option", option="penalty_tiles")
        if self.joker_value < 0:
            raise InvalidAction("bad-option", option="joker_value")
        # Four racks must fit in the 106 tiles with something left to draw.
        if not 1 <= self.rack_size <= 20:
            raise InvalidAction("bad-option", option="rack_size", least=1, most=20)
        if self.turn_seconds is not None and self.turn_seconds < 1:
            raise InvalidAction("bad-option", option="turn_seconds", least=1)
        if self.series_games is not None and self.series_games < 1:
            raise InvalidAction("bad-option", option="series_games", least=1)
        if self.target_score is not None and self.target_score < 1:
            raise InvalidAction("bad-option", option="target_score", least=1)

    @property
    def jokers_need_matching(self) -> bool:
        return self.joker_replacement != JOKER_FREE

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


# The default: the rules as document 004 states them before its list of joker restrictions,
# that is with the most lenient joker rule.
RUMMIKUB = Rules()

# Document 004 names the RRRummy games that use each joker restriction.
PRESETS: dict[str, Rules] = {
    "rummikub": RUMMIKUB,
    "easy-rummy": RUMMIKUB,
    "pup-rummy": RUMMIKUB,
    "dutch-rummy": replace(RUMMIKUB, joker_replacement=JOKER_MATCHING_FROM_RACK),
    "rrrummy": replace(RUMMIKUB, joker_replacement=JOKER_MATCHING_FROM_RACK, joker_locks_meld=True),
    "tiles-50": replace(
        RUMMIKUB,
        first_meld_minimum=50,
        joker_replacement=JOKER_MATCHING_FROM_RACK,
        joker_locks_meld=True,
        freed_joker_own_meld=True,
    ),
    "rummikub-timer": replace(RUMMIKUB, turn_seconds=120),
}

PRESET_LABELS: dict[str, str] = {
    "rummikub": "Tile rummy (lenient jokers, first melds 30)",
    "easy-rummy": "Easy Rummy (lenient jokers)",
    "pup-rummy": "Pup Rummy (lenient jokers)",
    "dutch-rummy": "Dutch Rummy (a joker is freed by its tile from your rack)",
    "rrrummy": "RRRummy (freed from your rack; melds with a joker are locked)",
    "tiles-50": "Tiles 50 (first melds 50, every joker restriction)",
    "rummikub-timer": "Tile rummy with a two-minute timer",
}
