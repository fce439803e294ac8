"""The rules pages: how to play each game of the registry, in the viewer's language.

The words are in the templates (``templates/rules/<key>.html``); this module gives them the
example melds they draw with the game pages' own tile and card classes, each with a label a
screen reader reads out ("red 5, red 6, red 7"), and the few numbers the engines define.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.engine import GAMES
from games.engine.remi.rules import REMI
from games.engine.tiles import COLOUR_NAMES
from games.game_names import game_label
from games.presenters.card_faces import SUIT_SYMBOLS
from games.presenters.card_words import card_name

# The examples each page draws, in the move notation (``J=R6``: a joker standing for red 6).
TILE_EXAMPLES = {
    "remi": {
        "run": "R5 R6 R7",
        "set": "K9 Y9 B9",
        "joly_run": "B10 J=B11 B12 B13",
        "high_one": "Y12 Y13 Y1",
        "low_one": "Y1 Y2 Y3",
        "wrong_wrap": "Y13 Y1 Y2",
        "first_meld": "R10 R11 R12 R13",
        "pair": "B8 B8",
    },
    "rummikub": {
        "run": "B3 B4 B5 B6",
        "set": "R11 Y11 K11",
        "joker_set": "R7 B7 J",
        "first_meld": "K10 K11 K12",
        "before": "Y4 Y5 Y6 Y7",
        "after_run": "Y4 Y5 Y6",
        "after_set": "Y7 R7 B7",
    },
}
CARD_EXAMPLES = {
    "basic-rummy": {
        "run": "4H 5H 6H",
        "set": "9S 9H 9C",
        "low_ace": "AD 2D 3D",
        "lay_off": "7H",
    },
    "thai-rummy": {
        "run": "QS KS AS",
        "set": "5C 5D 5H",
        "pricey": "QS 2C",
    },
}


@dataclass(frozen=True, slots=True)
class Piece:
    """One tile or card of an example: its CSS class, what its face shows, and its name."""

    css: str
    top: str
    bottom: str
    label: str


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


@dataclass(frozen=True, slots=True)
class Example:
    kind: str  # "tile" or "card"
    pieces: tuple[Piece, ...]

    @property
    def label(self) -> str:
        return ", ".join(piece.label for piece in self.pieces)


def examples(key: str) -> dict[str, Example]:
    # Remi players call the joker Joly (printed on the tiles); the tile rummy says joker.
    joly = key == "remi"
    found = {
        name: Example("tile", tuple(tile_piece(w, joly) for w in notation.split()))
        for name, notation in TILE_EXAMPLES.get(key, {}).items()
    }
    found.update(
        (name, Example("card", tuple(card_piece(w) for w in notation.split())))
        for name, notation in CARD_EXAMPLES.get(key, {}).items()
    )
    return found


def _games() -> list[dict[str, str]]:
    return [{"key": key, "name": game_label(key)} for key in GAMES]


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"games": _games()})


def rules_game(request: HttpRequest, key: str) -> HttpResponse:
    if key not in GAMES:
        raise Http404(key)
    context = {
        "key": key,
        "name": game_label(key),
        "games": _games(),
        "ex": examples(key),
        "low_first": REMI.low_doubla()[0],
        "low_last": REMI.low_doubla()[-1],
        "high_first": REMI.low_doubla()[-1] + 1,
    }
    return render(request, f"rules/{key}.html", context)
