"""Tournament formats as pure functions (no Django): pairing, brackets, standings."""

from __future__ import annotations

from .knockout import Bracket, BracketTable, Slot, knockout
from .round_robin import minimum_rounds, round_robin
from .standings import MatchResult, StandingRow, StandingsRules, match_points, standings
from .swiss import bye_candidates, repeats, swiss_round
from .tables import Player, Round, Table, bye_counts, meetings, table_sizes

__all__ = [
    "Bracket",
    "BracketTable",
    "MatchResult",
    "Player",
    "Round",
    "Slot",
    "StandingRow",
    "StandingsRules",
    "Table",
    "bye_candidates",
    "bye_counts",
    "knockout",
    "match_points",
    "meetings",
    "minimum_rounds",
    "repeats",
    "round_robin",
    "standings",
    "swiss_round",
    "table_sizes",
]
