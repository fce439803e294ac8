"""The rules engines of the site's games: pure Python, no Django, no I/O, no global randomness.

Each game is a package (its engine class, rules, melds, turns, view, bots); the shared pieces
are in ``core/`` (the protocol, seats and turns, series, review), ``tiles.py`` for the tile
games, ``cards.py`` and ``card_*.py`` (melds, actions, the planner, the hand outlook) for the
card games.  A game's own public API is its package's (``games.engine.remi`` for Remi's).

The registry of games (every layer above the engine goes through it)::

    GAMES                 key -> game object (core.protocol.GameEngine), in the order shown
    get_game(key)         the game for a key or an alias; UnknownGame (a ValueError) otherwise
    game_choices()        (key, label) pairs, for Django ``choices``
    register_games(games) what the site offers, in order (the first is the default game)
    discover_games()      the games whose packages are here, for scripts without the site

The engine names no game of its own accord: the site registers the plug-ins its settings list
(``REMI_GAMES``, loaded by ``games.plugins``), so a new game is one line there.  A script that
uses the engine without the site registers the games it wants (``discover_games()`` finds
the engine packages here).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

from .core.protocol import AnyGame, Ctx, GameEngine, Outcome, Traits
from .errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn, Refusal, UnknownGame

# Keys are stored with every table: a key is never reused for another game.  The one dict
# lives as long as the process, refilled in place, so a module that imported it sees a change.
GAMES: dict[str, AnyGame] = {}


def register_games(games: Iterable[AnyGame]) -> None:
    """Make ``games`` the registry, in their order."""
    found: dict[str, AnyGame] = {}
    for game in games:
        names = (game.key, *game.aliases)
        taken = [
            name
            for name in names
            if name in found or any(name in other.aliases for other in found.values())
        ]
        if taken:
            raise ValueError(f"{game!r} takes a name already registered: {', '.join(taken)}")
        found[game.key] = game
    GAMES.clear()
    GAMES.update(found)


def discover_games() -> list[AnyGame]:
    """The games whose engine packages live here (each package's ``GAME``), for a script that
    uses the engine without the site: ``register_games(discover_games())``.  The site does not
    use this: it registers the plug-ins its settings list, in their order."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            game = getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAME", None)
            if isinstance(game, GameEngine):
                found.append(game)
    return found


def get_game(key: str) -> AnyGame:
    """The registered game for ``key`` (or one of its aliases, in any case)."""
    game = GAMES.get(key)
    if game is not None:
        return game
    if isinstance(key, str):
        wanted = key.strip().lower()
        for game in GAMES.values():
            if wanted == game.key or wanted in game.aliases:
                return game
    raise UnknownGame(key, list(GAMES))


def game_choices() -> list[tuple[str, str]]:
    return [(game.key, game.label) for game in GAMES.values()]


__all__ = [
    "GAMES",
    "AnyGame",
    "Ctx",
    "GameEngine",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "NotYourTurn",
    "Outcome",
    "Refusal",
    "Traits",
    "UnknownGame",
    "discover_games",
    "game_choices",
    "get_game",
    "register_games",
]
