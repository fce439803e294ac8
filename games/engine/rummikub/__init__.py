"""The Rummikub-style tile rummy (source document 004, first part): pure Python, no Django.

Public API::

    parse_tiles, format_tiles, Tile, JOKER       tiles and their notation (shared with Remi)
    classify, Meld, MeldFault                     runs and sets
    Rules, RUMMIKUB, PRESETS, PRESET_LABELS       rule options as data
    new_game, apply, replay, player_view          playing a game
    parse_action, Play, Draw, Timeout             the action notation
    judge                                         the faults a play would earn, before it is made
    timeout_action, choose, LEVELS                the timer and the bots
    GAME                                          the registry's object (game protocol)
"""

from __future__ import annotations

from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from ..tiles import JOKER, Tile, format_tiles, parse_tiles
from .actions import Action, Draw, Group, Play, Timeout, parse_action
from .arrangement import Judgement, judge
from .bots import LEVELS, choose
from .events import Event
from .game import GAME, RummikubGame
from .melds import RUN, SET, Meld, MeldFault, classify
from .rules import PRESET_LABELS, PRESETS, RUMMIKUB, Rules
from .scoring import rack_total
from .state import State
from .timeout import timeout_action
from .turns import apply, new_game, replay
from .view import legal_verbs, player_view

__all__ = [
    "GAME",
    "JOKER",
    "LEVELS",
    "PRESETS",
    "PRESET_LABELS",
    "RUMMIKUB",
    "RUN",
    "SET",
    "Action",
    "Draw",
    "Event",
    "Group",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "Judgement",
    "Meld",
    "MeldFault",
    "NotYourTurn",
    "Play",
    "Rules",
    "RummikubGame",
    "State",
    "Tile",
    "Timeout",
    "apply",
    "choose",
    "classify",
    "format_tiles",
    "judge",
    "legal_verbs",
    "new_game",
    "parse_action",
    "parse_tiles",
    "player_view",
    "rack_total",
    "replay",
    "timeout_action",
]
