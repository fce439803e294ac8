"""What the rating pages show: a game's leaderboard and one player's history per game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import GAMES
from games.game_names import game_label
from tournaments.models import Rating, RatingChange
from tournaments.rating_chart import Chart, chart
from tournaments.rating_maths import PROVISIONAL_GAMES

LEADERBOARD_SIZE = 100


@dataclass(frozen=True)
class Row:
    place: int | None  # None for a provisional rating: not ranked yet
    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class Leaderboard:
    game_type: str
    game_label: str
    ranked: list[Row]
    provisional: list[Row]
    provisional_games: int = PROVISIONAL_GAMES


def leaderboard(game_type: str) -> Leaderboard:
    """The ``game_type``'s best players by rating; players with fewer than
    PROVISIONAL_GAMES rated games are listed apart, unranked."""
    ratings = Rating.objects.filter(game_type=game_type).select_related("user").order_by("-mu")
    ranked = ratings.filter(games__gte=PROVISIONAL_GAMES)[:LEADERBOARD_SIZE]
    provisional = ratings.filter(games__lt=PROVISIONAL_GAMES)[:LEADERBOARD_SIZE]
    return Leaderboard(
        game_type=game_type,
        game_label=game_label(game_type),
        ranked=[
            Row(place, r.user.public_name, r.shown, r.games)
            for place, r in enumerate(ranked, start=1)
        ],
        provisional=[Row(None, r.user.public_name, r.shown, r.games) for r in provisional],
    )


@dataclass(frozen=True)
class History:
    game_label: str
    rating: int
    provisional: bool
    games: int
    chart: Chart | None


def histories(user: Any) -> list[History]:
    """One entry per game the user has a rating in, in the registry's order."""
    ratings = {r.game_type: r for r in Rating.objects.filter(user=user)}
    changes: dict[str, list[RatingChange]] = {}
    for change in RatingChange.objects.filter(user=user):
        changes.setdefault(change.game_type, []).append(change)
    found = []
    for key in GAMES:
        rating = ratings.get(key)
        if rating is None:
            continue
        steps = changes.get(key, [])
        values = [steps[0].shown_before, *(c.shown_after for c in steps)] if steps else []
        found.append(
            History(game_label(key), rating.shown, rating.provisional, rating.games, chart(values))
        )
    return found
