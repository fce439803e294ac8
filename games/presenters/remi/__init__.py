"""Remi Etalat as the site loads a game (a line of ``settings.REMI_GAMES``): its engine
(``games.engine.remi``) and its presentation.

``presentation`` is what a seat or a spectator sees, as template context; ``forms`` the move
form, the rack order and the rule options; ``text`` the log's lines; ``refusals`` a refused
move in words; ``rules`` the rules said on table cards; ``recent`` what changed last (the
page's marks); ``templates/`` its game page and rules page, ``static/`` its page script.
"""

from __future__ import annotations

from games.engine.remi import GAME

from .presentation import PRESENTATION

__all__ = ["GAME", "PRESENTATION"]
