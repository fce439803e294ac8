"""The reads whose SQL is compiled once (``remi_site.prepared_queries``, ``games.hot_reads``)
give what the querysets they stand for give, on both databases the suite runs on."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import hot_reads
from games.models import Game, Seat
from games.tables import lifecycle
from remi_site.prepared_queries import Prepared

pytestmark = pytest.mark.django_db


def field_values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.fixture
def game(alice, bob, carol) -> Game:
    table = lifecycle.create_table(alice, game_type="remi", seat_count=3)
    lifecycle.join_table(table, bob)
    lifecycle.join_table(table, carol)
    return lifecycle.start_table(table, alice)


def test_a_game_with_its_table_reads_as_the_queryset_reads_it(game):
    expected = Game.objects.select_related("table").get(pk=game.pk)
    for _ in range(2):  # compiled on the first, reused on the second
        with CaptureQueriesContext(connection) as queries:
            found = hot_reads.game_with_table(game.pk)
            assert found is not None
            # The table came with it, already converted (its rules are a dict, not text).
            assert field_values(found.table) == field_values(expected.table)
        assert len(queries) == 1
        assert field_values(found) == field_values(expected)
        assert isinstance(found.state, dict) and found.state == expected.state
        assert found._state.adding is False and found._state.db == "default"


def test_a_table_s_seats_come_in_order_with_their_users(game):
    expected = list(Seat.objects.of_table(game.table_id))
    with CaptureQueriesContext(connection) as queries:
        found = hot_reads.table_seats(game.table_id)
        assert [s.user.username for s in found] == ["alice", "bob", "carol"]
    assert len(queries) == 1
    assert [field_values(s) for s in found] == [field_values(s) for s in expected]
    assert [s.position for s in found] == [0, 1, 2]


def test_an_unknown_game_is_none_and_other_arguments_give_other_rows(game, alice, bob):
    other_table = lifecycle.create_table(bob, game_type="basic-rummy", seat_count=2)
    lifecycle.join_table(other_table, alice)
    other = lifecycle.start_table(other_table, bob)
    assert hot_reads.game_with_table(game.pk).table.game_type == "remi"
    assert hot_reads.game_with_table(other.pk).table.game_type == "basic-rummy"
    assert hot_reads.game_with_table(other.pk + 1000) is None
    assert [s.user.username for s in hot_reads.table_seats(other_table.pk)] == ["bob", "alice"]


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_locked_read_needs_a_transaction_and_locks_in_one(game):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert hot_reads.game_with_table(game.pk, lock=True).pk == game.pk
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries[0]["sql"]
    with pytest.raises(TransactionManagementError):
        hot_reads.game_with_table(game.pk, lock=True)


def test_an_argument_that_is_not_one_parameter_is_refused(game):
    twice = Prepared(lambda n: Game.objects.filter(pk=n, version__lte=n), 1)
    with pytest.raises(ValueError, match="exactly one"):
        twice(game.pk)
    with pytest.raises(TypeError, match="expected 1 arguments"):
        Prepared(lambda n: Game.objects.filter(pk=n), 1)(game.pk, 2)
