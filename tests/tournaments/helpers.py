"""Shared steps for the tournament tests: players, tournaments, rounds played out."""

from __future__ import annotations

from typing import Any

from games.models import Game
from tests.conftest import make_user
from tests.tournaments.test_ratings import play_to_the_end
from tournaments import services
from tournaments.models import Match, Round, Tournament


def players(count: int, prefix: str = "p") -> list[Any]:
    return [make_user(f"{prefix}{i + 1}") for i in range(count)]


def tournament(organiser: Any, **fields: Any) -> Tournament:
    defaults = {
        "name": "Club evening",
        "game_type": "rummikub",
        "seat_count": 3,
        "format": Tournament.Format.SWISS,
        "rounds": 3,
    }
    return Tournament.objects.create(organiser=organiser, **{**defaults, **fields})


def play_round(round_: Round, seed: str) -> None:
    """Every match of the round played to its end by random legal moves."""
    for match in Match.objects.filter(round=round_, status=Match.Status.PLAYING):
        game = Game.objects.filter(table=match.table).order_by("-number").first()
        play_to_the_end(game, f"{seed}/{match.index}")


def under_way(organiser: Any, *entrants: Any) -> Tournament:
    """A Remi Swiss of two-seat tables, its first round confirmed and being played: the
    organiser and ``entrants`` registered (with a "dave" to make an even field of four)."""
    event = tournament(organiser, game_type="remi", seat_count=2, rounds=3)
    services.open_registration(event, organiser)
    for person in (organiser, *entrants, make_user("dave")):
        services.register(event, person)
    services.close_registration(event, organiser)
    services.confirm_round(services.propose_round(event, organiser), organiser)
    return event
