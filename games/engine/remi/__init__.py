"""Remi Etalat, the Romanian tile rummy: the whole game in one package.

``rules`` (options and presets), ``melds``, ``actions`` (the notation), ``state``, ``deal``,
``turns`` (``new_game`` and ``apply``), ``legal``, ``scoring``, ``view``, ``timeout``,
``series``, the ``solver`` and the ``bots``; the tiles are shared with the other tile game
(``games.engine.tiles``).  ``GAME`` is the registry's object
(:class:`~games.engine.core.protocol.GameEngine`).  The names below are the tile-game contract
of ``DESIGN.md`` (``parse_tiles``, ``classify``, ``PRESETS``), the plain functions, the
action classes and the series: Remi's public API (``games.engine`` itself names no game).
"""

from __future__ import annotations

from ..tiles import JOKER, Tile, format_tiles, parse_tiles
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
from .events import Event
from .game import GAME, RemiGame
from .legal import legal_verbs
from .melds import Meld, classify
from .rules import PRESET_LABELS, PRESETS, REMI, Rules
from .series import Series, new_series
from .state import State
from .turns import apply, new_game, replay
from .view import player_view

__all__ = [
    "GAME",
    "JOKER",
    "PRESETS",
    "PRESET_LABELS",
    "REMI",
    "Action",
    "AddToMeld",
    "Declare",
    "Discard",
    "Draw",
    "Event",
    "Exchange",
    "Group",
    "Meld",
    "MeldAction",
    "OfferDoubla",
    "Pick",
    "Ready",
    "RemiGame",
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
