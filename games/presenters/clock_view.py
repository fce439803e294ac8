"""What a game page shows of the clocks: each waiting seat's deadline, who is away on
vacation, and the button that gives a handed-over seat back to its player.

Built from ``Game.seat_clocks`` and the seats (with their users), so a render costs no query
of its own; every game's page includes ``games/includes/clocks.html``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from accounts.vacation import ends_at
from games.models import Game, Seat, Table
from remi_site.cached_reverse import cached_reverse


def clock_context(game: Game, seats: Sequence[Seat], viewer: int | None) -> dict[str, Any]:
    by_position = {seat.position: seat for seat in seats}
    playing = game.status == Game.Status.PLAYING
    clocks = []
    for key, brief in sorted((game.seat_clocks or {}).items(), key=lambda kv: int(kv[0])):
        seat = by_position.get(int(key))
        if not playing or seat is None or not brief.get("deadline"):
            continue
        clocks.append(
            {
                "seat": seat.position,
                "name": seat.display_name,
                "is_you": seat.position == viewer,
                "deadline": datetime.fromisoformat(brief["deadline"]),
                "paused": brief.get("paused", False),
            }
        )
    vacation_counts = game.table.pace == Table.Pace.SLOW and game.table.vacation_allowed
    away = [
        {
            "seat": seat.position,
            "name": seat.display_name,
            "until": ends_at(seat.user),
            "is_you": seat.position == viewer,
        }
        for seat in seats
        if seat.user is not None and seat.user.on_vacation and not seat.bot
    ]
    mine = by_position.get(viewer) if viewer is not None else None
    return {
        "seat_clock_list": clocks,
        "several_clocks": len(clocks) > 1,
        "away": away if playing else [],
        "vacation_stops_clocks": vacation_counts,
        "seat_handed_over": bool(
            playing and mine is not None and mine.handed_over and game.table.status == "playing"
        ),
        "take_back_url": cached_reverse("games:table_take_back", game.table_id),
    }
