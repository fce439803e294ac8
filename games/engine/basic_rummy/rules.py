"""Basic Rummy's rule options as data, with presets named after the variations.

The default is document 004's "Rummy Rules" as written; every option is a variation the
general rummy document (001) lists.  docs/rules.md ("Basic Rummy") gives the reading chosen
where a document is unclear.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..card_melds import ACES_AROUND, ACES_HIGH_OR_LOW, ACES_LOW
from ..core.options import option_names, option_values
from ..errors import InvalidAction

# How aces may sit in runs (004's low aces; 001's variations).
ACES = (ACES_LOW, ACES_HIGH_OR_LOW, ACES_AROUND)

# What happens when a player would draw from an empty stock.
STOCK_SHUFFLE = "shuffle"  # the discard pile is shuffled into a new stock (004)
STOCK_TURN_OVER = "turn-over"  # turned over unshuffled; the player may take the discard (001)
STOCK_BLOCK = "block"  # block rummy: the hand ends, everybody loses the points in hand (001)
STOCK_RULES = (STOCK_SHUFFLE, STOCK_TURN_OVER, STOCK_BLOCK)

# Cards dealt to each player by the number of players (004 for 2-4; 001 adds 5-6 with 6).
HAND_SIZES = {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}
# The score that wins a match by the number of players (004 for 2-4; 50 more a player after).
TARGETS = {2: 100, 3: 150, 4: 200, 5: 250, 6: 300}


@dataclass(frozen=True, slots=True)
class Rules:
    # None: by the number of players (HAND_SIZES); 001 allows 7 with five or six players.
    hand_size: int | None = None
    jokers: int = 0  # wild cards, never replaced nor scored (001)
    aces: str = ACES_LOW
    one_meld_per_turn: bool = False  # 004: "in some versions only one meld per turn"
    final_discard: bool = False  # going out needs a last discard (001)
    lay_off_after_own_meld: bool = False  # 001: no lay-off before one's own meld
    long_melds: bool = True  # False: melds of 3 or 4 cards only (001)
    stock_empty: str = STOCK_SHUFFLE
    # How many new stocks a hand may have; the next time the stock runs out it is a
    # stalemate (004: the second exhaustion).
    restocks: int = 1
    deep_pickup: bool = False  # rummy 500: a card from deep in the pile, with all above it
    out_from_second_turn: bool = False  # 001: "each player must wait until their second turn"
    rummy_doubles: bool = True  # 004: going rummy doubles the winner's points
    ace_points: int = 1  # 001: "counting an ace as 11 or 15"
    out_bonus: int = 0  # 001: "the player that goes out first gets an extra 10 points"
    turn_seconds: int | None = None
    # A match: this many hands, or until a total reaches the target; with neither, the
    # target follows the number of players (TARGETS).
    series_games: int | None = None
    target_score: int | None = None

    def __post_init__(self) -> None:
        _choice("aces", self.aces, ACES)
        _choice("stock_empty", self.stock_empty, STOCK_RULES)
        _within("hand_size", self.hand_size, 3, 13, optional=True)
        _within("jokers", self.jokers, 0, 4)
        _within("restocks", self.restocks, 0, 10)
        _within("ace_points", self.ace_points, 1, 15)
        _within("out_bonus", self.out_bonus, 0, 100)
        _within("turn_seconds", self.turn_seconds, 1, None, optional=True)
        _within("series_games", self.series_games, 1, None, optional=True)
        _within("target_score", self.target_score, 1, None, optional=True)

    def hand_size_for(self, players: int) -> int:
        return self.hand_size if self.hand_size is not None else HAND_SIZES[players]

    def limits_for(self, players: int | None) -> tuple[int | None, int | None]:
        """(hands, target score) of a match at a table of ``players``."""
        if self.series_games is None and self.target_score is None:
            return None, TARGETS.get(players or 2, TARGETS[2])
        return self.series_games, self.target_score

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


def _choice(option: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InvalidAction("bad-option", option=option, allowed=list(allowed))


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


BASIC_RUMMY = Rules()

PRESETS: dict[str, Rules] = {
    "basic-rummy": BASIC_RUMMY,
    "one-meld-a-turn": replace(BASIC_RUMMY, one_meld_per_turn=True),
    "final-discard": replace(BASIC_RUMMY, final_discard=True),
    "jokers-wild": replace(BASIC_RUMMY, jokers=2),
    "aces-high-or-low": replace(BASIC_RUMMY, aces=ACES_HIGH_OR_LOW),
    "round-the-corner": replace(BASIC_RUMMY, aces=ACES_AROUND),
    "block-rummy": replace(BASIC_RUMMY, stock_empty=STOCK_BLOCK),
    "rummy-500-pickup": replace(BASIC_RUMMY, deep_pickup=True),
    # Document 001's "Basic rummy" section read as one game: its own variations where it
    # names one way of playing (aces both ways, the pile turned over, a final discard,
    # lay-offs after one's own meld, going out from the second turn, 10 for going out).
    "rummy-001": replace(
        BASIC_RUMMY,
        aces=ACES_AROUND,
        stock_empty=STOCK_TURN_OVER,
        final_discard=True,
        lay_off_after_own_meld=True,
        out_from_second_turn=True,
        out_bonus=10,
    ),
    "basic-rummy-timer": replace(BASIC_RUMMY, turn_seconds=60),
}

PRESET_LABELS: dict[str, str] = {
    "basic-rummy": "Basic Rummy (aces low, any number of melds, no final discard)",
    "one-meld-a-turn": "One meld a turn",
    "final-discard": "A final discard to go out",
    "jokers-wild": "Two jokers, wild",
    "aces-high-or-low": "Aces high or low (QKA and A23)",
    "round-the-corner": "Round the corner (KA2 too)",
    "block-rummy": "Block rummy (the stock once through)",
    "rummy-500-pickup": "Rummy 500 pickup (deep in the discard pile)",
    "rummy-001": "Rummy as the general rules describe it",
    "basic-rummy-timer": "Basic Rummy with a one-minute timer",
}
