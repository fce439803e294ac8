"""What happened, as typed events the site can show in a log.

An event's ``secret`` part (the tile a player drew, the pair behind a doubla) belongs to the
acting seat alone: ``to_dict(viewer)`` and ``text(names, viewer)`` drop it for anyone else.
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

    def text(self, names: list[str], viewer: int | None = None) -> str:
        """One line for the game log, in the viewer's terms."""
        who = _name(names, self.seat, viewer)
        tiles = " ".join(self.tiles)
        you = viewer is not None and viewer == self.seat  # "You are ready", not "You is"
        mine = self.secret and you
        match self.kind:
            case "start":
                return "Play begins: you open." if you else f"Play begins: {who} opens."
            case "opened":
                return f"{who} opened the discard row with {tiles}."
            case "drew":
                return f"{who} drew {' '.join(self.secret)}." if mine else f"{who} drew a tile."
            case "took":
                return f"{who} took {tiles} from the discard row."
            case "picked":
                more = (
                    f" and {self.count} more tile{'s' if self.count != 1 else ''}"
                    if self.count
                    else ""
                )
                return f"{who} took {tiles}{more} from the discard row."
            case "took-exposed":
                return f"{who} took the exposed tile {tiles} to go out."
            case "undone":
                return f"{who} put {tiles} back."
            case "melded":
                *others, last = self.tiles or ("",)
                laid = f"{', '.join(others)} and {last}" if others else last
                return f"{who} melded {laid}" + (f" ({self.count} points)." if self.count else ".")
            case "added":
                return f"{who} added {tiles} to meld {self.other}."
            case "swapped":
                return f"{who} freed the Joly of meld {self.other} with {tiles}."
            case "discarded":
                return f"{who} discarded {tiles}."
            case "declared":
                return f"{who} declared the twin of the exposed tile ({tiles}): +25 at the end."
            case "doubla":
                label = f" ({self.label})" if self.label else ""
                extra = f" — your {' '.join(self.secret)} pair" if mine else ""
                return f"{who} {'offer' if you else 'offers'} a doubla{label}{extra}."
            case "exchange-asked":
                other = _name(names, self.other, viewer, later=True)
                return f"{who} {'ask' if you else 'asks'} {other} to exchange doublas."
            case "exchanged":
                other = _name(names, self.other, viewer, later=True)
                return f"{who} and {other} exchanged doublas."
            case "ready":
                return f"{who} {'are' if you else 'is'} ready."
            case "few-tiles":
                plural = "s" if self.count != 1 else ""
                return f"{who} {'have' if you else 'has'} {self.count} tile{plural} left!"
            case "rebuilt":
                return f"The wall was rebuilt from {self.count} discarded tiles."
            case "went-out":
                return f"{who} went out!"
            case "no-winner":
                return "Nothing is left to draw: the game ends with no winner."
        return self.kind


def _name(names: list[str], seat: int | None, viewer: int | None, *, later: bool = False) -> str:
    """How the log names a seat; ``later``: not at the start of the sentence."""
    if seat is None:
        return "someone" if later else "Someone"
    if viewer is not None and seat == viewer:
        return "you" if later else "You"
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"
