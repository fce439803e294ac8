"""The log's line for a move the clock made, shared by every game's presentation.

``Action.cause`` records who made a move; when the clock did, everyone reads so above the
move's own lines (which each game words for the viewer and which keep a seat's secrets: a
drawn tile shows only to its drawer, whoever drew it).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.models import Action


def clock_line(cause: str, names: Sequence[str], seat: int, viewer: int | None) -> str | None:
    """The sentence for a move of ``seat`` made by the clock, or None for an ordinary move."""
    if cause not in (Action.Cause.TIMEOUT, Action.Cause.AUTOPLAY, Action.Cause.HANDED_OVER):
        return None
    name = names[seat] if 0 <= seat < len(names) else _("Seat %(number)s") % {"number": seat}
    yours = viewer is not None and viewer == seat
    if cause == Action.Cause.TIMEOUT:
        if yours:
            return _("Your time ran out: the table played the timeout move.")
        return _("%(name)s's time ran out: the table played the timeout move.") % {"name": name}
    if cause == Action.Cause.AUTOPLAY:
        if yours:
            return _("Your time ran out: a bot played this move for you.")
        return _("%(name)s's time ran out: a bot played this move for them.") % {"name": name}
    if yours:
        return _(
            "Your time ran out once too often in a row: a bot plays your seat for the rest "
            "of the series. You can take it back from the game page."
        )
    return _(
        "%(name)s's time ran out once too often in a row: a bot plays the seat for the "
        "rest of the series."
    ) % {"name": name}


def with_clock_line(
    lines: list[str], action: Action, names: Sequence[str], viewer: int | None
) -> list[str]:
    line = clock_line(getattr(action, "cause", ""), names, action.seat, viewer)
    return [line, *lines] if line else lines
