"""Basic Rummy's use of the shared exact planner (:mod:`games.engine.card_planner`): its own
card points."""

from __future__ import annotations

from collections.abc import Sequence

from ..card_melds import Meld
from ..card_planner import Limits, Plan, candidate_melds
from ..card_planner import best_plan as shared_best_plan
from ..cards import Card
from .rules import Rules
from .scoring import card_points


def best_plan(
    hand: Sequence[Card], table: Sequence[Meld], rules: Rules, limits: Limits, melded: bool
) -> Plan:
    """The plan that leaves the fewest of Basic Rummy's points in hand."""
    return shared_best_plan(hand, table, rules, limits, melded, lambda c: card_points(c, rules))


__all__ = ["Limits", "Plan", "best_plan", "candidate_melds"]
