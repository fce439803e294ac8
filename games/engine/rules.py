"""Rule options as data.  Every variation the source documents list is a field here.

``REMI`` is the game as the primary source describes it; the other presets are house rules
players ask for by name.  ``docs/rules.md`` explains each option and the readings chosen.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import InvalidAction

UNMELDED_FLAT = "flat"  # a player who never melded loses a flat 200
UNMELDED_RACK = "rack"  # ... or 100 plus the value of the rack (printed rules)


@dataclass(frozen=True, slots=True)
class Rules:
    game: str = "remi"
    first_meld_minimum: int = 50
    first_meld_needs_run: bool = True
    # The previous player's discard may be taken if it goes straight into the first meld.
    first_meld_takes_discard: bool = False
    doubla: bool = True
    twin_bonus: int = 25
    rack_one_value: int = 25
    rack_joly_value: int = 25
    melded_joly_value: int = 50
    unmelded_penalty: str = UNMELDED_FLAT
    unmelded_flat: int = 200
    unmelded_rack_base: int = 100
    winner_bonus: int = 100
    all_at_once_bonus: int = 100
    joly_discard_doubles: bool = False
    # None: rebuild the wall from the discard row as often as needed.
    max_rebuilds: int | None = None
    # A stalemate: after this many rebuilds in a row with no tile laid on the table in
    # between, the game ends with no winner (otherwise closed melds could loop for ever).
    max_idle_rebuilds: int = 2
    # A series ends after this many games, or when someone reaches the target (either may be None).
    series_games: int | None = 1
    target_score: int | None = None
    low_tile_warning: int = 3

    def __post_init__(self) -> None:
        if self.first_meld_minimum < 0:
            raise InvalidAction("first_meld_minimum cannot be negative")
        if self.unmelded_penalty not in (UNMELDED_FLAT, UNMELDED_RACK):
            raise InvalidAction(f"unmelded_penalty must be '{UNMELDED_FLAT}' or '{UNMELDED_RACK}'")
        if self.max_rebuilds is not None and self.max_rebuilds < 0:
            raise InvalidAction("max_rebuilds cannot be negative")
        if self.max_idle_rebuilds < 1:
            raise InvalidAction("max_idle_rebuilds must be at least 1")
        if self.series_games is not None and self.series_games < 1:
            raise InvalidAction("series_games must be at least 1")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidAction(f"Unknown rule options: {', '.join(sorted(unknown))}")
        return cls(**data)

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
