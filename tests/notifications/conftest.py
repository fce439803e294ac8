"""Slow games between Alice (seat 0) and Bob (seat 1) for the notification tests, and Celery
run in-process (its own eager mode) so that a queued task runs where the test can see it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from games.engine import GAMES
from games.models import Game, Table
from games.play import services
from games.tables import lifecycle
from remi_site.celery import app as celery_app

DAY = 24 * 3600


@pytest.fixture
def eager_celery() -> Iterator[None]:
    before = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = before


def start_game(
    owner, other, *, game_type: str | None = None, pace=Table.Pace.SLOW, move_seconds=DAY
) -> Game:
    options = {"doubla": False} if (game_type or next(iter(GAMES))) == "remi" else None
    table = lifecycle.create_table(
        owner,
        game_type=game_type,
        seat_count=2,
        pace=pace,
        move_seconds=move_seconds,
        options=options,
    )
    lifecycle.join_table(table, other)
    return lifecycle.start_table(table, owner)


def play_timeout_move(game: Game) -> Game:
    """The first seat the game waits for plays its timeout move (a legal move in any game)."""
    game = Game.objects.select_related("table").get(pk=game.pk)
    seat = min(game.to_act)
    engine = services.game_of(game.table)
    action = engine.timeout_action(engine.load(game.state), seat)
    services.play(game.pk, seat, action, game.version)
    return Game.objects.get(pk=game.pk)


def opt_in(user, **preferences) -> None:
    from notifications.models import Preferences

    user.email_on_turn = True
    user.save(update_fields=["email_on_turn"])
    if preferences:
        Preferences.objects.update_or_create(user=user, defaults=preferences)


def seat_user(game: Game, seat: int):
    return game.table.seats.get(position=seat).user


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def until_turn_of(game: Game, user) -> Game:
    """Timeout moves until ``user`` owes the move (the first player is dealt at random)."""
    while seat_user(game, game.to_act[0]) != user:
        game = play_timeout_move(game)
    return game
