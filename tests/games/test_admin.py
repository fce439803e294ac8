"""Issue 13, fault 1: the admin's forms are safe and it keeps a game's secrets.

"Add game" answered 500 (a game is dealt by the site, never typed in: there is no such page
now); "Add table" started with rules ``null`` and refused its own preset (it now runs the
lobby's form and service).  Racks, the wall and the seed of a game still being played stay
out of every admin page unless the user has ``games.view_hidden_information``: the organiser
here is staff with the ordinary view/change permissions and plays at the table herself."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission

from games.models import Game, Seat, Table
from games.play import services
from games.tables import lifecycle
from tests.games.test_game_act import near_the_end
from tests.games.test_lobby_views import form_data

ORDINARY = [
    f"{verb}_{model}"
    for model in ("game", "table", "seat", "action")
    for verb in ("view", "change")
] + ["add_table"]


def grant(user, *codenames: str) -> None:
    user.is_staff = True
    user.save()
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="games", codename__in=codenames)
    )


@pytest.fixture
def organiser(alice):
    """Alice runs the tournament from the admin, without the hidden-information permission."""
    grant(alice, *ORDINARY)
    return alice


@pytest.fixture
def playing(organiser, bob) -> Game:
    """A game in play at the organiser's own table: a discard and a draw made, racks arranged."""
    table = lifecycle.create_table(organiser, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, organiser)
    first = game.state["first_player"]
    tile = game.state["racks"][first].split()[0]
    services.play(game.pk, first, f"discard {tile}", 0)
    services.play(game.pk, 1 - first, "draw", 1)
    game = Game.objects.get(pk=game.pk)
    for seat in Seat.objects.filter(table=table):
        seat.rack_order = {"game": game.pk, "tiles": game.state["racks"][seat.position].split()}
        seat.save()
    return game


def secrets_of(game: Game) -> list[str]:
    """What no admin page may show while ``game`` is played: both racks (the tiles in the
    state's own order and in the seats' saved order), the wall, the seeds, a drawn tile."""
    state = game.state
    table = Table.objects.get(pk=game.table_id)
    drawn = game.actions.get(version=2).events[0]["secret"]
    return [
        *state["racks"],
        *(json.dumps(s.rack_order["tiles"])[1:-1] for s in table.seats.all()),
        state["wall"][:40],
        state["seed"],
        table.series["seed"],
        "secret",
        json.dumps(drawn)[1:-1],
    ]


def admin_pages(game: Game) -> list[str]:
    table, seat = game.table_id, Seat.objects.filter(table_id=game.table_id).first().pk
    action = game.actions.get(version=2).pk
    return [
        f"/admin/games/game/{game.pk}/change/",
        f"/admin/games/game/{game.pk}/history/",
        "/admin/games/game/",
        f"/admin/games/table/{table}/change/",
        f"/admin/games/table/{table}/history/",
        "/admin/games/table/",
        f"/admin/games/seat/{seat}/change/",
        "/admin/games/seat/",
        f"/admin/games/action/{action}/change/",
        "/admin/games/action/",
        f"/admin/games/action/?game__id__exact={game.pk}",
    ]


def html_of(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode().replace("&quot;", '"')


# --- Secrets --------------------------------------------------------------------------------


def test_an_organiser_who_plays_sees_no_rack_wall_or_seed_of_a_game_in_play(
    client, organiser, playing
):
    client.force_login(organiser)
    hidden = secrets_of(playing)
    for url in admin_pages(playing):
        html = html_of(client, url)
        for secret in hidden:
            assert secret not in html, f"{secret!r} shown on {url}"
    page = html_of(client, f"/admin/games/game/{playing.pk}/change/")
    assert "Hidden while the game is being played." in page
    assert "discard " not in page  # the moves' notation too
    table = html_of(client, f"/admin/games/table/{playing.table_id}/change/")
    assert table.count("Hidden while the game is being played.") == 1  # the series


def test_the_permission_opens_a_game_in_play(client, organiser, playing):
    grant(organiser, "view_hidden_information")
    client.force_login(organiser)
    page = html_of(client, f"/admin/games/game/{playing.pk}/change/")
    for rack in playing.state["racks"]:
        assert rack in page
    assert playing.state["seed"] in page
    table = html_of(client, f"/admin/games/table/{playing.table_id}/change/")
    assert Table.objects.get(pk=playing.table_id).series["seed"] in table
    assert "Hidden while" not in table


def test_a_finished_game_is_an_open_book(client, organiser, bob):
    table = lifecycle.create_table(organiser, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, organiser)
    near_the_end(game, 0)
    services.play(game.pk, 0, "discard R5", 0)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    client.force_login(organiser)
    page = html_of(client, f"/admin/games/game/{game.pk}/change/")
    assert "K9 K10 K11 B2" in page  # the loser's rack, in the state
    assert game.state["seed"] in page
    assert "discard R5" in page
    assert "Hidden while" not in page
    listing = html_of(client, "/admin/games/action/")
    assert "discard R5" in listing
    series = html_of(client, f"/admin/games/table/{table.pk}/change/")
    assert Table.objects.get(pk=table.pk).series["seed"] in series


# --- Safe forms -----------------------------------------------------------------------------


def test_games_cannot_be_added_in_the_admin(client, admin_user, playing):
    client.force_login(admin_user)
    assert client.get("/admin/games/game/add/").status_code == 403
    assert "/admin/games/game/add/" not in html_of(client, "/admin/games/game/")


def test_a_games_page_in_the_admin_changes_nothing_of_its_play(client, admin_user, playing):
    client.force_login(admin_user)
    page = html_of(client, f"/admin/games/game/{playing.pk}/change/")
    assert '<textarea name="state"' not in page
    assert 'name="version"' not in page and 'name="to_act"' not in page


def test_the_add_table_page_offers_the_lobby_choices(client, organiser):
    client.force_login(organiser)
    page = html_of(client, "/admin/games/table/add/")
    assert page.count('name="preset"') == 1
    assert '<option value="remi" selected>' in page
    assert 'name="first_meld_minimum"' in page and 'name="bots"' in page
    assert "null" not in page


def test_adding_a_table_in_the_admin_makes_it_as_the_lobby_does(client, organiser, bob):
    client.force_login(organiser)
    data = form_data(seat_count="3", bots="1", bot_level="hard", first_meld_minimum="45")
    response = client.post("/admin/games/table/add/", {**data, "owner": bob.pk})
    assert response.status_code == 302, response.context["adminform"].form.errors
    table = Table.objects.get()
    assert table.owner == bob
    assert table.preset == "remi"
    assert table.rules["first_meld_minimum"] == 45
    assert table.seat_count == 3
    seats = list(table.seats.order_by("position").values_list("user", "bot"))
    assert seats == [(bob.pk, ""), (None, "hard")]


def test_the_admin_refuses_a_table_the_lobby_refuses(client, organiser):
    client.force_login(organiser)
    data = {**form_data(seat_count="2", bots="2"), "owner": organiser.pk}
    response = client.post("/admin/games/table/add/", data)
    assert response.status_code == 200
    assert "Leave at least one seat for a person" in response.content.decode()
    assert not Table.objects.exists()


def test_a_started_tables_game_and_rules_cannot_be_edited(client, admin_user, playing):
    client.force_login(admin_user)
    page = html_of(client, f"/admin/games/table/{playing.table_id}/change/")
    for field in ("game_type", "preset", "rules", "seat_count", "status"):
        assert f'name="{field}"' not in page
    assert 'name="is_public"' in page
