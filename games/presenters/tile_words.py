"""Tile words as the tile games' pages post them (``R5 J=R6 R7 | K9 Y9 B9``)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

TILE_WORD = re.compile(r"^(?:[RYBK](?:[1-9]|1[0-3])|J(?:=[RYBK](?:[1-9]|1[0-3]))?|\|)$")


def meld_words(text: str) -> list[list[str]] | None:
    """The words grouped into melds (a bar separates them; empty melds are dropped), or
    ``None`` when a word is not a tile; each form says that in its own words."""
    words = text.replace("|", " | ").upper().split()
    if any(not TILE_WORD.match(word) for word in words):
        return None
    groups: list[list[str]] = [[]]
    for word in words:
        if word == "|":
            groups.append([])
        else:
            groups[-1].append(word)
    return [group for group in groups if group]


COLOUR_WORDS = {
    "R": gettext_noop("red"),
    "Y": gettext_noop("yellow"),
    "B": gettext_noop("blue"),
    "K": gettext_noop("black"),
}


def colour_word(letter: str) -> str:
    """A tile colour for screen readers, in the viewer's language (one lookup: a page names
    a hundred tiles)."""
    word = COLOUR_WORDS.get(letter)
    return _(word) if word else letter
