"""The game page: what a player and a spectator see, and who may see it at all."""

from __future__ import annotations

import re
from typing import Any

from games import presenters
from games.engine.remi.state import State
from games.models import Game, Seat
from games.play import services
from games.presenters.remi import presentation as remi_presenter


def rack_of(game: Game, seat: int) -> list[str]:
    return Game.objects.get(pk=game.pk).state["racks"][seat].split()


def section(html: str, element_id: str) -> str:
    """The HTML of the top-level section with this id (sections do not nest here)."""
    match = re.search(rf'<section id="{element_id}".*?</section>', html, re.S)
    assert match, f"no #{element_id} in the page"
    return match.group(0)


def rack_tiles(html: str) -> list[str]:
    return re.findall(r'data-tile="([^"]+)"', section(html, "game-rack"))


def walk(value: Any):
    """Every key and value inside a context, to look for what must never be there."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from walk(item)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from walk(item)
    else:
        yield value


def test_a_player_sees_their_own_rack_in_their_order(client, alice, started):
    client.force_login(alice)
    response = client.get(started.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    shown = rack_tiles(html)
    assert sorted(shown) == sorted(rack_of(started, 0))
    for element_id in ("game-status", "game-players", "game-melds", "game-row", "game-controls"):
        assert f'id="{element_id}"' in html
    assert f'ws-connect="/ws/games/{started.pk}/?version=0"' in html


def test_a_spectator_sees_the_table_but_no_rack(client, carol, started):
    client.force_login(carol)
    response = client.get(started.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert rack_tiles(html) == []
    assert "You are watching this game." in html
    assert 'id="action-form"' not in html


def test_a_private_tables_game_is_not_found_for_an_outsider(client, carol, private_game):
    client.force_login(carol)
    assert client.get(private_game.get_absolute_url()).status_code == 404


def test_a_private_tables_game_shows_to_its_players(client, bob, private_game):
    client.force_login(bob)
    response = client.get(private_game.get_absolute_url())
    assert response.status_code == 200
    assert sorted(rack_tiles(response.content.decode())) == sorted(rack_of(private_game, 1))


def test_a_visitor_watches_a_public_game_as_a_spectator(client, started):
    response = client.get(started.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "You are watching this game." in html
    assert rack_tiles(html) == []
    assert 'id="action-form"' not in html


def test_a_private_game_asks_a_visitor_to_log_in(client, private_game):
    for url in (
        private_game.get_absolute_url(),
        f"/games/{private_game.pk}/replay/",
        f"/games/{private_game.pk}/deal/",
        "/games/987654/",  # whether the game exists or not
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert "/login" in response["Location"]


def test_an_unknown_game_is_not_found(client, alice, db):
    client.force_login(alice)
    assert client.get("/games/999999/").status_code == 404


def test_the_context_holds_no_other_rack_nor_the_wall_nor_the_seed(started):
    state = State.from_dict(Game.objects.get(pk=started.pk).state)
    seats = list(Seat.objects.filter(table=started.table))
    for seat in (0, 1, None):
        context = presenters.game_context(started, seats, seat)
        found = set(map(str, walk(context)))
        assert not {"wall", "racks", "seed"} & found
        assert state.seed not in found
        if seat is not None:
            own = [t.code for t in context["rack"]]
            assert sorted(own) == sorted(str(t) for t in state.racks[seat])
        else:
            assert context["rack"] is None


def test_the_rack_keeps_the_saved_order_and_appends_new_tiles():
    saved = ["K5", "R1", "J", "R1", "B9"]
    rack = ["R1", "B9", "R1", "J", "Y3", "K5"]  # Y3 came since the order was saved
    assert remi_presenter.arrange_rack(rack, saved) == ["K5", "R1", "J", "R1", "B9", "Y3"]
    # A tile played away drops out; a saved order that is not a list is ignored.
    assert remi_presenter.arrange_rack(["R1", "Y3"], saved) == ["R1", "Y3"]
    assert remi_presenter.arrange_rack(["Y3", "R1", "J"], {"x": 1}) == ["R1", "Y3", "J"]


def test_the_log_shows_a_drawn_tile_only_to_the_player_who_drew_it(client, alice, bob, started):
    first = started.state["first_player"]
    users = {0: alice, 1: bob}
    opener, drawer = users[first], users[1 - first]
    opened = rack_of(started, first)[0]
    services.play(started.pk, first, f"discard {opened}", 0)
    services.play(started.pk, 1 - first, "draw", 1)
    game = Game.objects.get(pk=started.pk)
    drawn = game.actions.get(version=2).events[0]["secret"][0]

    client.force_login(drawer)
    drawer_log = section(client.get(game.get_absolute_url()).content.decode(), "game-log")
    assert f"You drew {drawn}." in drawer_log

    client.force_login(opener)
    opener_log = section(client.get(game.get_absolute_url()).content.decode(), "game-log")
    assert f"{drawer.public_name} drew a tile." in opener_log
    assert f"drew {drawn}" not in opener_log
    assert f"You opened the discard row with {opened}." in opener_log
