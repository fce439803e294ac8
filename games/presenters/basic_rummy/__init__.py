"""Basic Rummy as the site loads a game (a line of ``settings.REMI_GAMES``): its engine
(``games.engine.basic_rummy``) and its presentation.

``presentation`` is what a seat or a spectator sees, as template context (on the base the
card rummies share, ``games.presenters.card_rummy``); ``forms`` the move form and the rule
options; ``text`` its sentences; ``templates/`` its game page and rules page, ``static/`` the
page script both card rummies load.
"""

from __future__ import annotations

from games.engine.basic_rummy import GAME

from .presentation import PRESENTATION

__all__ = ["GAME", "PRESENTATION"]
