"""The tile rummy as the site loads a game (a line of ``settings.REMI_GAMES``): its engine
(``games.engine.rummikub``) and its presentation.

``presentation`` is what a seat or a spectator sees, as template context; ``draft`` the
private draft of a turn being composed; ``forms`` the move, draft and rule options forms;
``text`` its sentences (log, refusals, faults); ``templates/`` its game page and rules page,
``static/`` its page script.
"""

from __future__ import annotations

from games.engine.rummikub import GAME

from .presentation import PRESENTATION

__all__ = ["GAME", "PRESENTATION"]
