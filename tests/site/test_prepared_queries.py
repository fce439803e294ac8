"""The reads and the update whose SQL is made once (``remi_site.prepared_queries``,
``games.hot_reads``, a move's save) do what the ORM's own would, on both databases the suite
runs on."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models import F, signals
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import hot_reads
from games.models import Action, Game, Seat
from games.tables import lifecycle
from remi_site.prepared_queries import Prepared, PreparedInsert, PreparedUpdate

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


def test_a_prepared_update_writes_what_the_orm_s_update_writes(game, alice, bob):
    other_table = lifecycle.create_table(alice, game_type="remi", seat_count=2)
    lifecycle.join_table(other_table, bob)
    other = lifecycle.start_table(other_table, alice)
    now = timezone.now()
    values = {
        "state": {"nested": [1, "two", None], "text": 'it\'s "quoted"'},
        "to_act": [2, 0],
        "scores": None,  # SQL NULL, not JSON null
        "phase": "play",
        "deadline": now,
        "waiting_for_bot": True,
        "version": 7,
    }
    save = PreparedUpdate(Game, tuple(values), ("id", "version"))
    assert save(values, game.pk, game.version) == 1
    Game.objects.filter(pk=other.pk, version=other.version).update(**values)
    written, expected = Game.objects.get(pk=game.pk), Game.objects.get(pk=other.pk)
    for name in values:
        assert getattr(written, name) == getattr(expected, name) == values[name], name
    assert set(Game.objects.filter(scores__isnull=True).values_list("pk", flat=True)) >= {
        game.pk,
        other.pk,
    }
    # At another version the row is left as it is.
    assert save({**values, "phase": "over"}, game.pk, 6) == 0
    assert Game.objects.get(pk=game.pk).phase == "play"


def test_a_prepared_update_takes_only_its_own_plain_fields(game):
    save = PreparedUpdate(Game, ("phase", "version"), ("id",))
    with pytest.raises(ValueError, match="expected the fields"):
        save({"phase": "play"}, game.pk)
    with pytest.raises(ValueError, match="expected the fields"):
        save({"phase": "play", "version": 1}, game.pk, 0)
    with pytest.raises(TypeError, match="only plain values"):
        save({"phase": "play", "version": F("version") + 1}, game.pk)
    with pytest.raises(ValueError, match="not a column"):
        PreparedUpdate(Game, ("actions",), ("id",))
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_prepared_insert_writes_what_create_writes_and_gives_the_new_key(game):
    record = PreparedInsert(Action)
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        made = record(game_id=game.pk, version=1, seat=1, notation="draw", events=[{"kind": "x"}])
    assert len(queries) == 1
    assert made.pk is not None and made._state.adding is False and made._state.db == "default"
    assert made.created_at >= before and made.cause == Action.Cause.PLAYER
    created = Action.objects.create(
        game_id=game.pk, version=2, seat=1, notation="draw", events=[{"kind": "x"}]
    )
    read, expected = Action.objects.get(pk=made.pk), Action.objects.get(pk=created.pk)
    for name in ("game_id", "seat", "notation", "events", "cause"):
        assert getattr(read, name) == getattr(expected, name) == getattr(made, name), name
    assert read.created_at == made.created_at
    assert created.pk == made.pk + 1  # the next key: the insert took its own


def test_nothing_listens_for_the_saves_that_a_prepared_insert_skips():
    # PreparedInsert sends no signals: a receiver added for these models would be skipped.
    assert not signals.pre_save.has_listeners(Action)
    assert not signals.post_save.has_listeners(Action)


def test_an_insert_needs_an_automatic_key():
    with pytest.raises(ValueError, match="no automatic key"):
        PreparedInsert(Session)  # its key is the session's own text
