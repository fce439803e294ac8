"""Thai Rummy as the site loads a game (a line of ``settings.REMI_GAMES``): its engine
(``games.engine.thai_rummy``) and its presentation.

``presentation`` is what a seat or a spectator sees, as template context (on the base the
card rummies share, ``games.presenters.card_rummy``); ``forms`` the move form and the rule
options; ``text`` its sentences; ``templates/`` its game page and rules page.  Its page
includes Basic Rummy's parts where they fit (status, table, hand, log) and loads Basic
Rummy's script, so it requires that plug-in too.
"""

from __future__ import annotations

from games.engine.thai_rummy import GAME

from .presentation import PRESENTATION

REQUIRES = ("games.presenters.basic_rummy",)

__all__ = ["GAME", "PRESENTATION", "REQUIRES"]
