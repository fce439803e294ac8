"""What happened, as data: a kind and its parameters, never a sentence.

The game log's sentences are made by the presentation layer (``games.presenters.remi.text``),
with gettext, for each viewer.  The parameters by kind: ``seat`` who acted; ``tiles`` tile or
meld notations (public); ``count`` a number of tiles, or a first meld's points (``melded``);
``other`` a second seat (``exchange-asked``, ``exchanged``) or a meld number (``added``,
``swapped``); ``label`` a doubla's announced label.  The ``secret`` part (the tile a player
drew, the pair behind a doubla) belongs to the acting seat alone: ``to_dict(viewer)`` drops it
for anyone else.  ``Action.events`` stores ``to_dict`` output, so this shape is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Event kinds
START = "start"
OPENED = "opened"
DREW = "drew"
TOOK = "took"
PICKED = "picked"
TOOK_EXPOSED = "took-exposed"
UNDONE = "undone"
MELDED = "melded"
ADDED = "added"
SWAPPED = "swapped"
DISCARDED = "discarded"
DECLARED = "declared"
DOUBLA = "doubla"
EXCHANGE_ASKED = "exchange-asked"
EXCHANGED = "exchanged"
READY = "ready"
FEW_TILES = "few-tiles"
REBUILT = "rebuilt"
WENT_OUT = "went-out"
NO_WINNER = "no-winner"


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int | None = None
    tiles: tuple[str, ...] = ()
    count: int = 0
    other: int | None = None  # a second seat, or a meld number
    label: str = ""
    secret: tuple[str, ...] = ()

    def to_dict(self, viewer: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        if self.tiles:
            data["tiles"] = list(self.tiles)
        if self.count:
            data["count"] = self.count
        if self.other is not None:
            data["other"] = self.other
        if self.label:
            data["label"] = self.label
        if self.secret and viewer is not None and viewer == self.seat:
            data["secret"] = list(self.secret)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(
            kind=data["kind"],
            seat=data.get("seat"),
            tiles=tuple(data.get("tiles", ())),
            count=data.get("count", 0),
            other=data.get("other"),
            label=data.get("label", ""),
            secret=tuple(data.get("secret", ())),
        )
