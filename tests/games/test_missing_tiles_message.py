"""Issue 13, fault 5: a move naming tiles the player does not hold names only the missing
ones, in every game that has this refusal ("You do not hold R6 R7 R8 R9" when R6 and R7 were
on the rack sent the player looking for the wrong tiles)."""

from __future__ import annotations

from django.utils.html import escape

from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.engine.rummikub import GAME as RUMMIKUB
from games.engine.rummikub.scenario import position as rummikub_position
from games.models import Game
from games.tables import lifecycle
from tests.games.test_game_act import act, error_text


def remi_game_in_play(alice, bob, rack: str) -> Game:
    """Alice (seat 0) has melded and drawn, so she may meld again now."""
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = scenario.position(
        racks=[rack, "K9 K10 K11 B2"],
        rules=REMI.with_options(doubla=False),
        melds=[("Y1 Y2 Y3", 0)],
        melded=[0],
        turn=0,
        phase="play",
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return game


def test_remi_names_only_the_tiles_missing_from_the_rack(client, alice, bob):
    game = remi_game_in_play(alice, bob, "R6 R7 K2 B5 Y12")
    client.force_login(alice)
    response = act(client, game, version=0, verb="notation", notation="meld R6 R7 R8 R9")
    assert response.status_code == 200
    assert error_text(response.content.decode()) == escape("You do not hold R8 R9.")


def test_remi_counts_copies_a_second_r6_is_missing_when_one_is_held(client, alice, bob):
    game = remi_game_in_play(alice, bob, "R6 R7 K2 B5 Y12")
    client.force_login(alice)
    response = act(client, game, version=0, verb="notation", notation="meld R6 K6 Y6 | R6 R7 R8")
    assert error_text(response.content.decode()) == escape("You do not hold R6 K6 Y6 R8.")


def test_the_tile_rummy_names_only_the_tiles_missing_from_the_rack(client, alice, bob):
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = rummikub_position(
        names=["alice", "bob"], racks=["R6 R7 K2 B5", "Y1 Y2 Y9 B13"], stock="K7 K8 K9"
    )
    Game.objects.filter(pk=game.pk).update(state=RUMMIKUB.dump(state))
    client.force_login(alice)
    response = act(client, game, version=0, verb="notation", notation="play R6 R7 R8 R9")
    assert response.status_code == 200
    assert error_text(response.content.decode()) == escape("Not on your rack: R8 R9.")
