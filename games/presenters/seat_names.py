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


def seat_place(seat: int, viewer: int | None, players: int) -> str:
    """Where ``seat`` sits around the table as ``viewer`` sees it (a spectator from the first
    seat's chair): the viewer at the bottom, play going round to the left, across, then right
    (the page's CSS places each ``seat-<place>``)."""
    after = (seat - (viewer or 0)) % players
    if after == 0:
        return "bottom"
    if players == 2:
        return "top"
    if after == 1:
        return "left"
    if after == players - 1:
        return "right"
    # Between left and right: one across, or two or three along the far side.
    far = {1: ("top",), 2: ("top-left", "top-right")}.get(players - 3, FAR_SIDE)
    return far[after - 2]


FAR_SIDE = ("top-left", "top", "top-right")
