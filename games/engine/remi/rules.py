"""Rule options as data.  Every variation the source documents list is a field here.

``REMI`` is the game as the primary source describes it; the other presets are house rules
players ask for by name.  ``docs/rules.md`` explains each option and the readings chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.options import option_names, option_values
from ..errors import InvalidAction

UNMELDED_FLAT = "flat"  # a player who never melded loses a flat 200
UNMELDED_RACK = "rack"  # ... or 100 plus the value of the rack (printed rules)

# Which pairs a doubla's label calls "low" and which "high"...
DOUBLA_PRINTED = "printed"  # 2-9 low (dublă mică), 10-13 and 1 high: the printed rules
DOUBLA_EVEN = "even"  # 1-6 low, 7-13 high: the site's split before issue 16
LOW_DOUBLAS = {DOUBLA_PRINTED: range(2, 10), DOUBLA_EVEN: range(1, 7)}

# In a game with no winner, a player who never melded...
NO_WINNER_RACK = "rack"  # ... loses what is on their rack, like everyone else (the source)
NO_WINNER_PENALTY = "penalty"  # ... pays the never-melded penalty, as when someone went out


@dataclass(frozen=True, slots=True)
class Rules:
    game: str = "remi"
    first_meld_minimum: int = 50
    first_meld_needs_run: bool = True
    # The previous player's discard may be taken if it goes straight into the first meld.
    first_meld_takes_discard: bool = False
    doubla: bool = True
    # A player may offer another doubla once the previous one is exchanged.
    many_doublas: bool = True
    # Where a doubla's label splits low from high (LOW_DOUBLAS).
    doubla_split: str = DOUBLA_PRINTED
    twin_bonus: int = 25
    rack_one_value: int = 25
    rack_joly_value: int = 25
    melded_joly_value: int = 50
    unmelded_penalty: str = UNMELDED_FLAT
    unmelded_flat: int = 200
    unmelded_rack_base: int = 100
    no_winner_unmelded: str = NO_WINNER_RACK
    winner_bonus: int = 100
    all_at_once_bonus: int = 100
    joly_discard_doubles: bool = False
    # In the turn of the first meld, a Joly may be freed from a meld laid in that turn.
    first_meld_turn_swap: bool = True
    # None: rebuild the wall from the discard row as often as needed.
    max_rebuilds: int | None = None
    # The game ends with no winner when no tile off the table can ever be laid
    # (``stalemate.py``).  This optional safety cap also ends it after this many rebuilds in a
    # row with no tile laid in between; None: no cap.  On by default, generously: a table of
    # absent players whose timeouts only draw and discard would otherwise never end.
    max_idle_rebuilds: int | None = 10
    # A series ends after this many games, or when someone reaches the target (either may be None).
    series_games: int | None = 1
    target_score: int | None = None
    low_tile_warning: int = 3

    def __post_init__(self) -> None:
        if self.first_meld_minimum < 0:
            raise InvalidAction("bad-option", option="first_meld_minimum")
        if self.unmelded_penalty not in (UNMELDED_FLAT, UNMELDED_RACK):
            raise InvalidAction(
                "bad-option", option="unmelded_penalty", allowed=[UNMELDED_FLAT, UNMELDED_RACK]
            )
        if self.max_rebuilds is not None and self.max_rebuilds < 0:
            raise InvalidAction("bad-option", option="max_rebuilds")
        if self.no_winner_unmelded not in (NO_WINNER_RACK, NO_WINNER_PENALTY):
            raise InvalidAction(
                "bad-option",
                option="no_winner_unmelded",
                allowed=[NO_WINNER_RACK, NO_WINNER_PENALTY],
            )
        if self.doubla_split not in LOW_DOUBLAS:
            raise InvalidAction("bad-option", option="doubla_split", allowed=sorted(LOW_DOUBLAS))
        if self.max_idle_rebuilds is not None and self.max_idle_rebuilds < 1:
            raise InvalidAction("bad-option", option="max_idle_rebuilds", least=1)
        if self.series_games is not None and self.series_games < 1:
            raise InvalidAction("bad-option", option="series_games", least=1)

    def to_dict(self) -> dict[str, Any]:
        return option_values(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data).difference(option_names(cls))
        if unknown:
            raise InvalidAction("unknown-options", options=sorted(unknown))
        # Games stored before the option keep the split their doublas were labelled by.
        return cls(**{"doubla_split": DOUBLA_EVEN, **data})

    def low_doubla(self) -> range:
        """The numbers whose pairs are a low doubla; every other pair is high."""
        return LOW_DOUBLAS[self.doubla_split]

    def with_options(self, **options: Any) -> Rules:
        return replace(self, **options)


REMI = Rules()

PRESETS: dict[str, Rules] = {
    "remi": REMI,
    "remi-45": replace(REMI, first_meld_minimum=45),
    "remi-open-discard": replace(REMI, first_meld_takes_discard=True),
    "remi-printed": replace(REMI, unmelded_penalty=UNMELDED_RACK),
    "remi-joly-double": replace(REMI, joly_discard_doubles=True),
}

PRESET_LABELS = {
    "remi": "Remi Etalat (source rules)",
    "remi-45": "First meld 45",
    "remi-open-discard": "First meld may use the previous discard",
    "remi-printed": "Never melded: lose 100 + rack",
    "remi-joly-double": "Going out on a Joly doubles",
}
