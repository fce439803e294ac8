"""``{% face "games/<key>/game.html#face" t=tile %}``: a tile's or card's face, rendered once.

A page draws a hundred tiles or cards, each through the game's ``face`` partial, for every
viewer after every move.  A face depends only on the piece it shows (and, should a face ever
say a word, the language), so it is rendered once per piece and kept: the markup stays in
the game's template, and a page's render pays a lookup per piece instead of a partial.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.presenters.fragment_reuse import pure

register = template.Library()


@register.simple_tag
@pure  # a piece's face: the same for the same piece, in the same language
def face(partial: str, **piece: Any) -> SafeString:
    """The ``partial`` rendered with ``piece`` (one name: the piece's view, which must be
    hashable, as the games' frozen tile and card views are)."""
    ((name, view),) = piece.items()
    return _face(partial, name, view, get_language())


@lru_cache(maxsize=8192)
def _face(partial: str, name: str, view: Any, language: str | None) -> SafeString:
    del language  # the cache key: the partial renders in the active language
    return render_to_string(partial, {name: view})
