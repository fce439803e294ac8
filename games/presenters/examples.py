"""Example melds for the rules pages, drawn with the game pages' own tile and card classes,
each piece with a label a screen reader reads out ("red 5, red 6, red 7").  A game's
presentation writes its examples in its move notation (``J=R6``: a joker standing for red 6)
and builds them here (``Presentation.rules_context``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine.tiles import COLOUR_NAMES

from .card_faces import SUIT_SYMBOLS
from .card_words import card_name


@dataclass(frozen=True, slots=True)
class Piece:
    """One tile or card of an example: its CSS class, what its face shows, and its name."""

    css: str
    top: str
    bottom: str
    label: str


@dataclass(frozen=True, slots=True)
class Example:
    kind: str  # "tile" or "card"
    pieces: tuple[Piece, ...]

    @property
    def label(self) -> str:
        return ", ".join(piece.label for piece in self.pieces)


def _colour(letter: str) -> str:
    names = {"R": _("red"), "Y": _("yellow"), "B": _("blue"), "K": _("black")}
    return names[letter]


def tile_piece(word: str, joly: bool) -> Piece:
    if word.startswith("J"):
        stands = word[2:]
        if not stands:
            return Piece("tile-joly", "J", "★", "Joly" if joly else _("joker"))
        tile = f"{_colour(stands[0])} {stands[1:]}"
        label = _("Joly as %(tile)s") if joly else _("joker as %(tile)s")
        return Piece("tile-joly", "J", stands, label % {"tile": tile})
    number = word[1:]
    return Piece(f"tile-{COLOUR_NAMES[word[0]]}", number, word[0], f"{_colour(word[0])} {number}")


def card_piece(word: str) -> Piece:
    return Piece(f"card-{word[-1]}", word[:-1], SUIT_SYMBOLS[word[-1]], card_name(word))


def tile_examples(notations: Mapping[str, str], *, joly: bool = False) -> dict[str, Example]:
    """Examples of tiles; ``joly``: the joker is called Joly, as printed on Remi's tiles."""
    return {
        name: Example("tile", tuple(tile_piece(word, joly) for word in notation.split()))
        for name, notation in notations.items()
    }


def card_examples(notations: Mapping[str, str]) -> dict[str, Example]:
    return {
        name: Example("card", tuple(card_piece(word) for word in notation.split()))
        for name, notation in notations.items()
    }
