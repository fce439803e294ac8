"""Basic Rummy, the card game (source document 004, second part "Rummy Rules", with the
variations of document 001): pure Python, no Django.

Public API::

    parse_cards, format_cards, Card, JOKER        cards and their notation (games.engine.cards)
    classify, lay_off, Meld                       sets and runs
    Rules, BASIC_RUMMY, PRESETS, PRESET_LABELS     rule options as data
    new_game, apply, player_view                  playing a hand
    parse_action and the action classes           the action notation
    best_plan                                     the exact meld and lay-off planner
    choose, LEVELS                                the bots
    GAME                                          the registry's object (game protocol)
"""

from __future__ import annotations

from ..card_melds import RUN, SET, Meld, classify, lay_off
from ..cards import JOKER, Card, format_cards, parse_cards
from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Take, parse_action
from .bots import LEVELS, choose
from .game import GAME, BasicRummyGame
from .planner import Limits, Plan, best_plan
from .rules import BASIC_RUMMY, PRESET_LABELS, PRESETS, Rules
from .scoring import card_points, hand_value
from .state import State
from .turns import apply, new_game
from .view import legal_verbs, player_view

__all__ = [
    "BASIC_RUMMY",
    "GAME",
    "JOKER",
    "LEVELS",
    "PRESETS",
    "PRESET_LABELS",
    "RUN",
    "SET",
    "Action",
    "BasicRummyGame",
    "Card",
    "Discard",
    "Draw",
    "Group",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "LayOff",
    "Limits",
    "Meld",
    "MeldCards",
    "NotYourTurn",
    "Plan",
    "Rules",
    "State",
    "Take",
    "apply",
    "best_plan",
    "card_points",
    "choose",
    "classify",
    "format_cards",
    "hand_value",
    "lay_off",
    "legal_verbs",
    "new_game",
    "parse_action",
    "parse_cards",
    "player_view",
]
