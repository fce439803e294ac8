"""The rules engines of the site's games: pure Python, no Django, no I/O, no global randomness.

Each game is a package (``remi/``, ``rummikub/``, ``basic_rummy/``, ``thai_rummy/``; the
shared pieces in ``core/``, ``tiles.py`` for the tile games, ``cards.py`` and ``card_*.py``
(melds, actions, the planner, the hand outlook) for the card games).  Remi's
public API, kept here for the code written before the registry (tests
rely on these names)::

    parse_tiles, format_tiles, Tile, JOKER        tiles and their notation
    Rules, REMI, PRESETS                          rule options as data
    new_game, apply, replay, player_view          playing a game
    parse_action and the action classes           the compact action notation
    legal_verbs                                   which kinds of action a seat may try now
    Series, new_series                            a series of games
    InvalidAction, IllegalAction, NotYourTurn     refusals (all ValueError): a code and params

The registry of games (every layer above the engine goes through it)::

    GAMES                 key -> game object (core.protocol.GameEngine), in the order shown
    get_game(key)         the game for a key or an alias; UnknownGame (a ValueError) otherwise
    game_choices()        (key, label) pairs, for Django ``choices``
    register_games(games) what the site offers, in order (the first is the default game)

The engine names no game of its own accord: the site registers the plug-ins its settings list
(``REMI_GAMES``, loaded by ``games.plugins``), so a new game is one line there.  A script that
uses the engine without the site registers the games it wants.

New code asks the game object (``get_game(table.game_type)``) rather than Remi's names.
"""

from __future__ import annotations

from collections.abc import Iterable

from .core.protocol import AnyGame, Ctx, GameEngine, Outcome, Traits
from .errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn, Refusal, UnknownGame
from .remi import apply, new_game, replay
from .remi.actions import (
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
from .remi.events import Event
from .remi.legal import legal_verbs
from .remi.melds import Meld, classify
from .remi.rules import PRESETS, REMI, Rules
from .remi.series import Series, new_series
from .remi.state import State
from .remi.view import player_view
from .tiles import JOKER, Tile, format_tiles, parse_tiles

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
    "JOKER",
    "PRESETS",
    "REMI",
    "Action",
    "AddToMeld",
    "AnyGame",
    "Ctx",
    "Declare",
    "Discard",
    "Draw",
    "Event",
    "Exchange",
    "GameEngine",
    "Group",
    "IllegalAction",
    "InvalidAction",
    "InvalidMeld",
    "Meld",
    "MeldAction",
    "NotYourTurn",
    "OfferDoubla",
    "Outcome",
    "Pick",
    "Ready",
    "Refusal",
    "Rules",
    "Series",
    "State",
    "SwapJoly",
    "TakeDiscard",
    "TakeExposed",
    "Tile",
    "Traits",
    "Undo",
    "UnknownGame",
    "apply",
    "classify",
    "format_tiles",
    "game_choices",
    "get_game",
    "legal_verbs",
    "new_game",
    "new_series",
    "parse_action",
    "parse_tiles",
    "player_view",
    "register_games",
    "replay",
]
