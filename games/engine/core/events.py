"""What happened in a game, as data: a code, the seat it concerns and parameters.

The sentences a player reads are made by the presentation layer (with gettext) from the code
and parameters.  An event's ``secret`` parameters (the card a player drew) belong to the seats
in ``to`` alone: ``to_dict(viewer)`` leaves them out for anyone else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    code: str
    seat: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] = ()  # the seats that may see ``secret``

    def visible_to(self, viewer: int | None) -> bool:
        return viewer is not None and viewer in self.to

    def to_dict(self, viewer: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "seat": self.seat, "params": dict(self.params)}
        if self.secret and self.visible_to(viewer):
            data["secret"] = dict(self.secret)
        return data
