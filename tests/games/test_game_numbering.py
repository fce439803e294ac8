"""Issue 13, fault 7: one numbering of games everywhere.  ``/games/2/`` said "Game 1" (its
number in the series, next to an unrelated id), the replay "game 1", the admin counted from 0;
now every place says "Table 5 · game 2 of 3"."""

from __future__ import annotations

import re

import pytest

from games.engine import GAMES
from games.models import Game
from games.play import services
from games.tables import lifecycle
from tests.games.test_game_act import near_the_end


@pytest.fixture
def second_game(alice, bob) -> Game:
    """The second game of a three-game series at a two-seat table, the first one finished."""
    table = lifecycle.create_table(
        alice, seat_count=2, options={"doubla": False, "series_games": 3}
    )
    lifecycle.join_table(table, bob)
    first = lifecycle.start_table(table, alice)
    near_the_end(first, 0)
    services.play(first.pk, 0, "discard R5", 0)
    return lifecycle.next_game(table)


def test_the_game_page_names_the_table_and_the_game_of_the_series(client, alice, second_game):
    client.force_login(alice)
    html = client.get(second_game.get_absolute_url()).content.decode()
    title = f"Table {second_game.table_id} · game 2 of 3"
    assert f"<title>{title} · Remi</title>" in html
    assert f'<h1 class="game-title">{title}</h1>' in html
    assert "Game 1" not in html


def test_the_replay_counts_the_same_way(client, alice, second_game):
    first = Game.objects.get(table=second_game.table, number=0)
    client.force_login(alice)
    html = client.get(f"/games/{first.pk}/replay/").content.decode()
    assert f"Replay: Table {first.table_id} · game 1 of 3" in html
    assert "game 0" not in html


def test_the_admin_counts_from_one_too(client, admin_user, second_game):
    client.force_login(admin_user)
    listing = client.get("/admin/games/game/").content.decode()
    assert '<td class="field-game_of_series">2</td>' in listing
    assert '<td class="field-game_of_series">1</td>' in listing
    page = client.get(f"/admin/games/game/{second_game.pk}/change/").content.decode()
    assert f"Table {second_game.table_id} · game 2" in page


def test_a_single_game_and_a_tile_rummy_game_are_named_the_same_way(client, alice, bob):
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    assert f'<h1 class="game-title">Table {table.pk} · game 1</h1>' in html


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_names_its_page_by_table_and_game(client, alice, bob, key):
    """Issue 30, fault 9: the card games' pages were headed "Game 1"."""
    table = lifecycle.create_table(alice, game_type=key, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    title = re.search(r"<title>(.*?) · Remi</title>", html)
    assert title and title.group(1).startswith(f"Table {table.pk} · game 1")
    assert re.search(rf'<h1 class="game-title">Table {table.pk} · game 1\b', html)


@pytest.mark.parametrize("key", [k for k in GAMES if k in ("basic-rummy", "thai-rummy")])
def test_the_card_games_label_their_stock_and_pile_for_the_eye(client, alice, bob, key):
    """Issue 30, fault 9: stock and pile were named for screen readers only."""
    table = lifecycle.create_table(alice, game_type=key, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    piles = html.split('id="game-piles"')[1].split("</section>")[0]
    labels = re.findall(r'<span class="pile-label" aria-hidden="true">([^<]+)</span>', piles)
    assert labels == ["Stock", "Discard pile"]
