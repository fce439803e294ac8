"""Thai Rummy's part of the review: the shared card reviewer with the limits the bots use
(a card kept for the face-down discard that goes out).  Anyone may lay off at any time, so
no turn's play is a first meld."""

from __future__ import annotations

from typing import Any

from ..card_planner import Points
from ..card_review import CardReviewer, Turn
from .bots import KEEP_A_CARD, Seen
from .scoring import card_points

JSON = dict[str, Any]


class ThaiRummyReviewer(CardReviewer):
    def turn(self, view: JSON) -> Turn:
        seen = Seen(view)
        return Turn(seen.hand, seen.table, seen.rules, KEEP_A_CARD, True, card_points)

    def card_points(self, view: JSON) -> Points:
        return card_points

    def first_meld(self, turn: Turn) -> bool:
        return False
