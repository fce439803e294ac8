"""Issue 13, fault 9: "Take exposed" is there at the start of every turn beside Draw, and one
click bound the player to go out.  It is now a secondary button that asks first — unless the
engine sees the player going out with the exposed tile."""

from __future__ import annotations

import re

from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.models import Game
from games.tables import lifecycle


def alice_to_draw(alice, bob, rack: str) -> Game:
    """Alice (seat 0) has melded and starts her turn; the exposed tile is R3."""
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = scenario.position(
        racks=[rack, "K1 K2 K3 B4"],
        rules=REMI.with_options(doubla=False),
        wall="B7 B8 B10",
        exposed="R3",
        melded=[0],
        turn=0,
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return game


def take_exposed_button(client, game: Game) -> str:
    html = client.get(game.get_absolute_url()).content.decode()
    match = re.search(r'<button[^>]*value="exposed"[^>]*>', html)
    assert match, "no Take exposed button"
    return match.group(0)


def test_take_exposed_asks_first_when_the_player_cannot_go_out_with_it(client, alice, bob):
    game = alice_to_draw(alice, bob, "R1 R2 K5 K6 B9 Y11")
    client.force_login(alice)
    button = take_exposed_button(client, game)
    assert 'class="secondary"' in button
    assert 'data-confirm="Take the exposed tile? You must then meld all your other tiles' in button
    assert "disabled" not in button


def test_take_exposed_asks_nothing_when_it_lets_the_player_go_out(client, alice, bob):
    game = alice_to_draw(alice, bob, "R1 R2 K5 K6 K7 B9")
    client.force_login(alice)
    button = take_exposed_button(client, game)
    assert 'class="secondary"' in button
    assert "data-confirm" not in button
