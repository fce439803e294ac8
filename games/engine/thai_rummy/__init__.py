"""Thai Rummy, the card game (source document 003): pure Python, no Django.

Public API::

    parse_cards, format_cards, Card               cards and their notation (games.engine.cards)
    classify, lay_off, Meld                       sets and runs, aces high (games.engine.card_melds)
    Rules, THAI_RUMMY, PRESETS, PRESET_LABELS     rule options as data
    new_game, apply, player_view                  playing a hand
    parse_action and the action classes           the action notation
    choose, LEVELS                                the bots
    GAME                                          the registry's object (game protocol)
"""

from __future__ import annotations

from ..card_melds import RUN, SET, Meld, classify, lay_off
from ..cards import Card, format_cards, parse_cards
from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Pass, Take, parse_action
from .bots import LEVELS, choose
from .game import GAME, ThaiRummyGame
from .rules import PRESET_LABELS, PRESETS, THAI_RUMMY, Rules
from .scoring import card_points, points
from .state import State
from .turns import apply, new_game
from .view import legal_verbs, player_view

__all__ = [
    "GAME",
    "LEVELS",
    "PRESETS",
    "PRESET_LABELS",
    "RUN",
    "SET",
    "THAI_RUMMY",
    "Action",
    "Card",
    "Discard",
    "Draw",
    "Group",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "LayOff",
    "Meld",
    "MeldCards",
    "NotYourTurn",
    "Pass",
    "Rules",
    "State",
    "Take",
    "ThaiRummyGame",
    "apply",
    "card_points",
    "choose",
    "classify",
    "format_cards",
    "lay_off",
    "legal_verbs",
    "new_game",
    "parse_action",
    "parse_cards",
    "player_view",
    "points",
]
