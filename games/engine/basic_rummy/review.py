"""Basic Rummy's part of the review: the shared card reviewer, with the limits of the turn
read as the bots read them (one meld a turn, going out allowed yet, the taken card)."""

from __future__ import annotations

from typing import Any

from ..card_planner import Points
from ..card_review import CardReviewer, Turn
from .bots import Seen
from .rules import Rules
from .scoring import card_points

JSON = dict[str, Any]


class BasicRummyReviewer(CardReviewer):
    def turn(self, view: JSON) -> Turn:
        seen = Seen(view)
        return Turn(
            seen.hand,
            seen.table,
            seen.rules,
            seen.limits(),
            seen.melded,
            lambda c: card_points(c, seen.rules),
        )

    def card_points(self, view: JSON) -> Points:
        rules = Rules.from_dict(view["rules"])
        return lambda c: card_points(c, rules)
