"""Issue 13: the Remi page marks what changed last: the tile a player just took (for that
player only), the last discard, and the melds the previous player laid or changed."""

from __future__ import annotations

import re

from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.engine.remi.state import DRAW
from games.models import Game
from games.play import services
from games.tables import lifecycle


def alice_to_draw(alice, bob) -> Game:
    """Alice (seat 0) starts her turn; both have melded; the wall's next tile is B7."""
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = scenario.position(
        racks=["R1 R2 R3 R13 K5 K6 Y9 B12", "K1 K2 K3 B4 Y4 R4 Y12 Y13"],
        rules=REMI.with_options(doubla=False),
        wall="B7 B8 B10 B11",
        discards="Y8 K9",
        melds=[("Y5 Y6 Y7", 0), ("R10 R11 R12", 1)],
        melded=[0, 1],
        turn=0,
        phase=DRAW,
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return game


def page(client, user, game: Game) -> str:
    client.force_login(user)
    return client.get(game.get_absolute_url()).content.decode()


def marked_rack_tiles(html: str) -> list[str]:
    return re.findall(r'class="tile tile-\w+ rack-tile fresh" data-tile="(\w+)"', html)


def test_the_drawn_tile_is_marked_for_the_drawer_alone(client, alice, bob):
    game = alice_to_draw(alice, bob)
    assert marked_rack_tiles(page(client, alice, game)) == []
    services.play(game.pk, 0, "draw", 0)
    html = page(client, alice, game)
    assert marked_rack_tiles(html) == ["B7"]
    assert 'aria-label="blue 7, just taken"' in html
    assert "B7" not in page(client, bob, game).split('id="game-rack"')[1].split("</section>")[0]


def test_the_last_discard_and_the_previous_players_melds_are_marked(client, alice, bob):
    game = alice_to_draw(alice, bob)
    html = page(client, bob, game)
    assert re.search(r'row-tile last-discard" data-row="1" data-tile="K9"', html)
    assert "recent" not in re.findall(r'class="meld[^"]*"', html)[0]

    services.play(game.pk, 0, "draw", 0)
    services.play(game.pk, 0, "meld R1 R2 R3", 1)
    services.play(game.pk, 0, "add 1 R13", 2)
    services.play(game.pk, 0, "discard K5", 3)
    bobs = page(client, bob, game)
    recent = re.findall(r'class="meld recent" data-meld="(\d+)"', bobs)
    # Alice's new run and Bob's run she added to; not her older meld.
    assert sorted(recent) == ["1", "2"]
    assert "(just played)" in bobs
    assert re.search(r'row-tile last-discard last-turn" data-row="2" data-tile="K5"', bobs)
    # Alice sees her own move unmarked: it was hers.
    assert re.findall(r'class="meld recent"', page(client, alice, game)) == []
