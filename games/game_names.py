"""The games' and rule presets' names as people read them, in the viewer's language.

The engines name their games and presets in English (``GameEngine.label``,
``preset_labels``) and stay free of Django; the words shown on pages belong here. A game or
preset not listed yet shows the engine's English name until someone adds it.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import GAMES

GAME_LABELS = {
    "remi": _("Remi Etalat"),
    "rummikub": _("Tile rummy (Rummikub style)"),
    "basic-rummy": _("Basic Rummy (cards)"),
    "thai-rummy": _("Thai Rummy (cards)"),
}

PRESET_LABELS = {
    "remi": _("Remi Etalat (source rules)"),
    "remi-45": _("First meld 45"),
    "remi-open-discard": _("First meld may use the previous discard"),
    "remi-printed": _("Never melded: lose 100 + rack"),
    "remi-joly-double": _("Going out on a Joly doubles"),
    "rummikub": _("Tile rummy (lenient jokers, first melds 30)"),
    "easy-rummy": _("Easy Rummy (lenient jokers)"),
    "pup-rummy": _("Pup Rummy (lenient jokers)"),
    "dutch-rummy": _("Dutch Rummy (a joker is freed by its tile from your rack)"),
    "rrrummy": _("RRRummy (freed from your rack; melds with a joker are locked)"),
    "tiles-50": _("Tiles 50 (first melds 50, every joker restriction)"),
    "rummikub-timer": _("Tile rummy with a two-minute timer"),
    "basic-rummy": _("Basic Rummy (aces low, any number of melds, no final discard)"),
    "one-meld-a-turn": _("One meld a turn"),
    "final-discard": _("A final discard to go out"),
    "jokers-wild": _("Two jokers, wild"),
    "aces-high-or-low": _("Aces high or low (QKA and A23)"),
    "round-the-corner": _("Round the corner (KA2 too)"),
    "block-rummy": _("Block rummy (the stock once through)"),
    "rummy-500-pickup": _("Rummy 500 pickup (deep in the discard pile)"),
    "rummy-001": _("Rummy as the general rules describe it"),
    "basic-rummy-timer": _("Basic Rummy with a one-minute timer"),
    "thai-rummy": _("Thai Rummy (game to 500)"),
    "bonus-not-doubled": _("The +50 for going out is never doubled"),
    "layoff-does-not-show": _("Laying off does not count as showing a meld"),
    "thai-rummy-timer": _("Thai Rummy with a one-minute timer"),
}


def game_label(game_type: str) -> str:
    if game_type in GAME_LABELS:
        return str(GAME_LABELS[game_type])
    game = GAMES.get(game_type)
    return game.label if game is not None else game_type


def preset_label(game_type: str, preset: str) -> str:
    game = GAMES.get(game_type)
    if game is None or preset not in game.presets:
        return preset
    if preset in PRESET_LABELS:
        return str(PRESET_LABELS[preset])
    return game.preset_labels.get(preset, preset)


def game_choices() -> list[tuple[str, str]]:
    """Every registered game as (key, name) for a form's choices."""
    return [(key, game_label(key)) for key in GAMES]
