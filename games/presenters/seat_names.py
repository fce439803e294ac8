"""Seats' names as the viewer reads them.

A game keeps its seats' names in its state from the deal: a person's public name, or a bot's
label and seat ("Bot (easy) 2"), in the language the table's owner had when the game began.
A person's name is theirs in every language; a bot's label is the site's words, so it is said
again in the viewer's language wherever a name is shown (the lobby already did).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from django.conf import settings
from django.utils import translation

from games.models import Seat

BOT_NAME = re.compile(r"^(?P<label>.+) (?P<seat>\d+)$")


@cache
def _bot_levels() -> dict[str, str]:
    """Every language's bot label ("Bot (ușor)") -> the bot's level ("easy")."""
    levels = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for level, label in Seat.Bot.choices:
                if level:
                    levels[str(label)] = level
    return levels


def shown_name(name: str) -> str:
    """``name`` in the viewer's language: a bot's label is translated, a person's is kept."""
    found = BOT_NAME.match(name)
    if found is None:
        return name
    level = _bot_levels().get(found["label"])
    if level is None:
        return name
    return f"{Seat.Bot(level).label} {found['seat']}"


def shown_names(names: Sequence[str]) -> list[str]:
    return [shown_name(name) for name in names]
