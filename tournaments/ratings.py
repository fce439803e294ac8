"""Rated games move their players' ratings, once, in the transaction that finishes them."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from tournaments.models import Rating, RatingChange
from tournaments.rating_maths import Skill, places_from_scores, rate


def rate_finished_game(sender: Any, game: Game, seats: dict[int, Seat], **kwargs: Any) -> None:
    """The receiver of ``games.signals.game_finished``.

    Only people are rated: a seat a bot held from the start has no user.  A seat handed to
    a bot after its player's timeouts still counts for that player (walking away loses, as
    on other game sites).  Nothing happens for an unrated table, a game without scores, or
    a game already rated (a retried finish)."""
    if not game.table.rated or not game.scores:
        return
    people = sorted(
        (position, seat.user_id) for position, seat in seats.items() if seat.user_id is not None
    )
    if len(people) < 2 or RatingChange.objects.filter(game=game).exists():
        return
    game_type = game.table.game_type
    user_ids = [user_id for _, user_id in people]
    for user_id in user_ids:
        Rating.objects.get_or_create(user_id=user_id, game_type=game_type)
    # Locked in one order, so two games finishing at once for the same players wait for each
    # other (PostgreSQL) instead of one overwriting the other's update.
    current = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, game_type=game_type)
        .order_by("user_id")
    }
    places = places_from_scores([game.scores[position] for position, _ in people])
    before = [current[user_id].skill for user_id in user_ids]
    after = rate(before, places)
    changes = []
    for user_id, place, old, new in zip(user_ids, places, before, after, strict=True):
        rating = current[user_id]
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
        changes.append(_change(user_id, game, game_type, place, old, new))
    RatingChange.objects.bulk_create(changes)


def _change(
    user_id: int, game: Game, game_type: str, place: int, old: Skill, new: Skill
) -> RatingChange:
    return RatingChange(
        user_id=user_id,
        game=game,
        game_type=game_type,
        place=place,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu_after=new.mu,
        sigma_after=new.sigma,
    )


def ratings_of(user_ids: list[int], game_type: str) -> dict[int, Rating]:
    """The ratings of these players in one game (players without one are left out)."""
    return {
        rating.user_id: rating
        for rating in Rating.objects.filter(user_id__in=user_ids, game_type=game_type)
    }
