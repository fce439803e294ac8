"""An organiser withdrawing a player (forfeiting their running seat) while the same table's
finishing move is being played: both take the table's locks before the tournament's, so
neither waits for the other in a cycle.  PostgreSQL only (SQLite has no row locks: its
writers simply queue), in real parallel transactions, one thread and connection each.

The interleaving is forced: the table is rated, and a third transaction holds the players'
rating rows, so the move stops after taking its game and table, at the rating (whose
receiver runs before the tournament's).  Then the withdrawal starts, and the holder lets
go.  With the old order (the tournament first, then the table) the withdrawal held the
tournament while waiting for the game, the move held the game while waiting for the
tournament, and PostgreSQL killed one as deadlocked; now the withdrawal waits for the
game before it takes the tournament."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection, transaction

from games.engine import get_game
from games.models import Game
from games.play import services as games
from tests.tournaments.helpers import players, tournament
from tournaments import services
from tournaments.models import Match, Rating, RatingChange, Registration

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks and deadlocks need PostgreSQL"
    ),
]


def one_move_from_the_end(game: Game) -> tuple[int, object]:
    """Play random moves until the next one ends the game; that move (seat, action)."""
    engine = get_game(game.table.game_type)
    rng = random.Random("lock-order")
    for _ in range(3000):
        game.refresh_from_db()
        state = engine.load(game.state)
        seat = game.to_act[0]
        action = engine.random_action(state, seat, rng)
        after, _events = engine.apply(state, seat, action)
        if engine.is_over(after):
            return seat, action
        games.play(game.pk, seat, action, game.version)
    raise AssertionError("the game did not end in 3000 moves")


def engine_over(game: Game) -> bool:
    engine = get_game(game.table.game_type)
    return engine.is_over(engine.load(game.state))


def waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0]


def wait_for_waiters(count: int) -> None:
    for _ in range(200):
        if waiting_on_locks() >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} transaction(s) never queued on the lock")


def in_thread(call, outcome: dict, key: str) -> threading.Thread:
    def run() -> None:
        try:
            outcome[key] = call()
        except Exception as error:  # the outcome under test, kept for the asserts
            outcome[key] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_withdrawal_and_a_finishing_move_at_once_do_not_deadlock(alice):
    event = tournament(alice, game_type="rummikub", seat_count=2, rounds=1, rated=True)
    services.open_registration(event, alice)
    field = players(2)
    for user in field:
        services.register(event, user)
    round_ = services.confirm_round(services.propose_round(event, alice), alice)
    match = Match.objects.select_related("table").get(round=round_)
    game = Game.objects.get(table=match.table)
    seat, finishing = one_move_from_the_end(game)
    game.refresh_from_db()
    leaving = match.table.seats.get(position=1 - seat).user

    for user in field:
        Rating.objects.get_or_create(user=user, game_type="rummikub")
    release, held = threading.Event(), threading.Event()

    def hold_the_ratings() -> None:
        with transaction.atomic():
            list(Rating.objects.select_for_update().filter(game_type="rummikub"))
            held.set()
            release.wait(30)

    outcome: dict[str, object] = {}
    holder = in_thread(hold_the_ratings, outcome, "holder")
    assert held.wait(10)
    move = in_thread(lambda: games.play(game.pk, seat, finishing, game.version), outcome, "move")
    wait_for_waiters(1)  # the move holds its game and table, and waits at the ratings
    withdrawal = in_thread(
        lambda: services.withdraw_player(event, leaving, alice, running="forfeit"),
        outcome,
        "withdrawal",
    )
    wait_for_waiters(2)  # the withdrawal waits too
    release.set()
    for thread in (holder, withdrawal, move):
        thread.join(30)
        assert not thread.is_alive()

    assert outcome["withdrawal"] is None, outcome["withdrawal"]
    assert isinstance(outcome["move"], games.Played), outcome["move"]
    # The move came first, so the match has its played result and the forfeit found
    # nothing left to forfeit; the player is withdrawn all the same.
    match.refresh_from_db()
    game.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.adjudicated
    assert game.status == Game.Status.FINISHED and engine_over(game)
    assert RatingChange.objects.filter(game=game).count() == 2
    registration = Registration.objects.get(tournament=event, user=leaving)
    assert registration.status == Registration.Status.WITHDRAWN
