"""Remi Etalat, the Romanian tile rummy: the whole game in one package.

``rules`` (options and presets), ``melds``, ``actions`` (the notation), ``state``, ``deal``,
``turns`` (``new_game`` and ``apply``), ``legal``, ``scoring``, ``view``, ``timeout``,
``series``, the ``solver`` and the ``bots``; the tiles are shared with the other tile game
(``games.engine.tiles``).  ``GAME`` is the registry's object
(:class:`~games.engine.core.protocol.GameEngine`).  The names below are the tile-game contract
of ``DESIGN.md`` (``parse_tiles``, ``classify``, ``PRESETS``) and the plain functions.
"""

from __future__ import annotations

from ..tiles import Tile, format_tiles, parse_tiles
from .game import GAME, RemiGame
from .melds import Meld, classify
from .rules import PRESET_LABELS, PRESETS, REMI, Rules
from .turns import apply, new_game, replay

__all__ = [
    "GAME",
    "PRESETS",
    "PRESET_LABELS",
    "REMI",
    "Meld",
    "RemiGame",
    "Rules",
    "Tile",
    "apply",
    "classify",
    "format_tiles",
    "new_game",
    "parse_tiles",
    "replay",
]
