"""Correspondence games for the clock tests, started at a moment the test controls."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from games.models import Game, SeatClock, Table
from games.play import services
from games.tables import lifecycle

DAY = 24 * 3600
HOUR = timedelta(hours=1)


def correspondence_game(owner, *others, game_type: str = "remi", **table: Any) -> Game:
    """A started correspondence game (1 day a move unless told), owner in seat 0."""
    options = table.pop("options", {"doubla": False} if game_type == "remi" else {})
    table.setdefault("move_seconds", DAY)
    created = lifecycle.create_table(
        owner,
        game_type=game_type,
        seat_count=1 + len(others),
        pace=Table.Pace.SLOW,
        options=options,
        **table,
    )
    for other in others:
        lifecycle.join_table(created, other)
    return lifecycle.start_table(created, owner)


def fresh(game: Game) -> Game:
    return Game.objects.select_related("table").get(pk=game.pk)


def live_clock(game: Game, seat: int) -> SeatClock:
    return SeatClock.objects.get(game=game, seat=seat, ended_at__isnull=True)


def to_move(game: Game) -> int:
    """The one seat the game waits for."""
    (seat,) = fresh(game).to_act
    return seat


def discard_last(game: Game, seat: int) -> None:
    """The seat's turn from a position where it must draw first (or open the row)."""
    game = fresh(game)
    if game.phase == "draw":
        services.play(game.pk, seat, "draw", game.version)
        game = fresh(game)
    rack = game.state["racks"][seat].split()
    services.play(game.pk, seat, f"discard {rack[-1]}", game.version)


def at(moment: datetime):
    import time_machine

    return time_machine.travel(moment, tick=False)
