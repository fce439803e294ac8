from __future__ import annotations

import pytest

from games.engine import IllegalAction, NotYourTurn
from games.models import Action, Game, Table
from games.play import services
from games.tables import lifecycle


def first_player(game: Game) -> int:
    return game.state["first_player"]


def test_starting_a_full_table_deals_the_first_game(started):
    table = started.table
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert started.version == 0
    racks = [len(r.split()) for r in started.state["racks"]]
    assert sorted(racks) == [14, 15]


def test_play_applies_a_move_bumps_the_version_and_logs_it(started):
    seat = first_player(started)
    tile = started.state["racks"][seat].split()[0]
    played = services.play(started.pk, seat, f"discard {tile}", expected_version=0)
    game = Game.objects.get(pk=started.pk)
    assert game.version == 1
    assert game.state["discards"] == tile
    assert game.to_act == [1 - seat]
    logged = Action.objects.get(game=game)
    assert (logged.version, logged.seat, logged.notation) == (1, seat, f"discard {tile}")
    assert played.events[0].kind == "opened"


def test_a_stale_version_changes_nothing(started):
    seat = first_player(started)
    tile = started.state["racks"][seat].split()[0]
    services.play(started.pk, seat, f"discard {tile}", expected_version=0)
    with pytest.raises(services.GameMovedOn) as stale:
        services.play(started.pk, 1 - seat, "draw", expected_version=0)
    assert stale.value.current_version == 1
    assert Game.objects.get(pk=started.pk).version == 1
    assert Action.objects.filter(game=started).count() == 1


def test_an_illegal_move_changes_nothing(started):
    seat = first_player(started)
    before = Game.objects.get(pk=started.pk).state
    with pytest.raises(IllegalAction) as refused:
        services.play(started.pk, seat, "draw", expected_version=0)
    assert refused.value.code == "must-open"
    with pytest.raises(NotYourTurn):
        services.play(started.pk, 1 - seat, "discard R1", expected_version=0)
    game = Game.objects.get(pk=started.pk)
    assert (game.version, game.state) == (0, before)
    assert not Action.objects.filter(game=started).exists()


@pytest.mark.django_db(transaction=True)
def test_a_move_on_a_game_read_outside_a_transaction_is_refused(started):
    """play_locked is for a caller holding the game's row: read without a transaction, the
    game could change before the move is saved on it."""
    seat = first_player(started)
    tile = started.state["racks"][seat].split()[0]
    game = Game.objects.select_related("table").get(pk=started.pk)
    with pytest.raises(RuntimeError, match="read the game for update"):
        services.play_locked(game, services.table_seats(game.table_id), seat, f"discard {tile}", 0)
    assert Game.objects.get(pk=started.pk).version == 0
    assert not Action.objects.filter(game=started).exists()


def test_joining_a_full_table_is_refused(alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=2)
    lifecycle.join_table(table, bob)
    with pytest.raises(lifecycle.TableError, match="full"):
        lifecycle.join_table(table, carol)


def test_only_the_owner_starts_and_only_when_full(alice, bob):
    table = lifecycle.create_table(alice, seat_count=3)
    lifecycle.join_table(table, bob)
    with pytest.raises(lifecycle.TableError, match="owner"):
        lifecycle.start_table(table, bob)
    with pytest.raises(lifecycle.TableError, match="Every seat"):
        lifecycle.start_table(table, alice)
