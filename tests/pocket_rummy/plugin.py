"""Pocket Rummy as the site loads a game (``settings.REMI_GAMES``): its engine and its
presentation; its templates are in ``templates/`` and its page script in ``static/`` beside
this module."""

from __future__ import annotations

from .engine import GAME
from .presentation import PRESENTATION

__all__ = ["GAME", "PRESENTATION"]
