"""The games' and rule presets' names as people read them, in the viewer's language.

The engines name their games and presets in English (``GameEngine.label``,
``preset_labels``) and stay free of Django; each game's presentation says them in the
viewer's language (``Presentation.label``, ``preset_labels``).  A preset it does not name
shows the engine's English name until someone adds it.
"""

from __future__ import annotations

from games.engine import GAMES
from games.presenters import PRESENTERS


def game_label(game_type: str) -> str:
    presentation = PRESENTERS.get(game_type)
    if presentation is not None:
        return str(presentation.label)
    game = GAMES.get(game_type)
    return game.label if game is not None else game_type


def preset_label(game_type: str, preset: str) -> str:
    game = GAMES.get(game_type)
    if game is None or preset not in game.presets:
        return preset
    presentation = PRESENTERS.get(game_type)
    if presentation is not None and preset in presentation.preset_labels:
        return str(presentation.preset_labels[preset])
    return game.preset_labels.get(preset, preset)


def game_choices() -> list[tuple[str, str]]:
    """Every registered game as (key, name) for a form's choices."""
    return [(key, game_label(key)) for key in GAMES]
