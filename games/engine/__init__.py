"""The Remi rules engine: pure Python, no Django, no I/O, no global randomness.

Public API (tests and the site rely on these names)::

    parse_tiles, format_tiles, Tile, JOKER        tiles and their notation
    Rules, REMI, PRESETS                          rule options as data
    new_game, apply, replay, player_view          playing a game
    parse_action and the action classes           the compact action notation
    legal_verbs                                   which kinds of action a seat may try now
    Series, new_series                            a series of games
    InvalidAction, IllegalAction, NotYourTurn     refusals (all ValueError)
"""

from __future__ import annotations

from .actions import (
    Action,
    AddToMeld,
    Declare,
    Discard,
    Draw,
    Exchange,
    Group,
    MeldAction,
    OfferDoubla,
    Pick,
    Ready,
    SwapJoly,
    TakeDiscard,
    TakeExposed,
    Undo,
    parse_action,
)
from .errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from .events import Event
from .legal import legal_verbs
from .melds import Meld, classify
from .remi import apply, new_game, replay
from .rules import PRESETS, REMI, Rules
from .series import Series, new_series
from .state import State
from .tiles import JOKER, Tile, format_tiles, parse_tiles
from .view import player_view

__all__ = [
    "JOKER",
    "PRESETS",
    "REMI",
    "Action",
    "AddToMeld",
    "Declare",
    "Discard",
    "Draw",
    "Event",
    "Exchange",
    "Group",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "Meld",
    "MeldAction",
    "NotYourTurn",
    "OfferDoubla",
    "Pick",
    "Ready",
    "Rules",
    "Series",
    "State",
    "SwapJoly",
    "TakeDiscard",
    "TakeExposed",
    "Tile",
    "Undo",
    "apply",
    "classify",
    "format_tiles",
    "legal_verbs",
    "new_game",
    "new_series",
    "parse_action",
    "parse_tiles",
    "player_view",
    "replay",
]
