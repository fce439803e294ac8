"""Reading counts and ids typed by people or sent by browsers.

``str.isdigit()`` accepts superscripts and other scripts' digits that ``int()`` then rejects or
reads differently, so every number that comes from outside is read here, ASCII digits only.
"""

from __future__ import annotations

import re

_ASCII_NATURAL = re.compile(r"[0-9]{1,18}")


def parse_natural(text: object, *, maximum: int | None = None) -> int | None:
    """The whole ``text`` as a non-negative integer in ASCII digits, or ``None``.

    ``None`` too when it is larger than ``maximum``; at most 18 digits are ever read, so the
    result always fits a 64-bit database column.
    """
    if not isinstance(text, str) or not _ASCII_NATURAL.fullmatch(text):
        return None
    number = int(text)
    if maximum is not None and number > maximum:
        return None
    return number
