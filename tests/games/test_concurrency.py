"""Racing moves: the same move sent at once from several connections applies exactly once.

Each thread has its own database connection, so on PostgreSQL these are truly parallel
transactions; on SQLite they queue on the write lock.  Either way the conditional save on
the version must let exactly one through."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import Action, Game
from games.play import services

RACERS = 6


def race(calls):
    """Run ``calls`` at the same moment, each in its own thread and DB connection."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        try:
            outcomes[index] = call()
        except Exception as error:  # the outcome under test, kept for the asserts
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_the_same_move_sent_from_several_connections_applies_once(started):
    seat = started.state["first_player"]
    tile = started.state["racks"][seat].split()[0]
    outcomes = race(
        [lambda: services.play(started.pk, seat, f"discard {tile}", 0) for _ in range(RACERS)]
    )
    applied = [o for o in outcomes if isinstance(o, services.Played)]
    stale = [o for o in outcomes if isinstance(o, services.GameMovedOn)]
    assert len(applied) == 1
    assert len(stale) == RACERS - 1, outcomes
    assert all(s.current_version == 1 for s in stale)
    fresh = Game.objects.get(pk=started.pk)
    assert fresh.version == 1
    assert fresh.state["discards"] == tile
    assert list(Action.objects.filter(game=started).values_list("version", flat=True)) == [1]


@pytest.mark.django_db(transaction=True)
def test_different_moves_racing_on_one_version_leave_one_consistent_result(started):
    seat = started.state["first_player"]
    tiles = started.state["racks"][seat].split()[:RACERS]
    outcomes = race([lambda t=t: services.play(started.pk, seat, f"discard {t}", 0) for t in tiles])
    applied = [o for o in outcomes if isinstance(o, services.Played)]
    assert len(applied) == 1
    fresh = Game.objects.get(pk=started.pk)
    won = applied[0].game.state["discards"]
    assert fresh.state["discards"] == won
    assert len(fresh.state["racks"][seat].split()) == 14
    assert Action.objects.filter(game=started).count() == 1
