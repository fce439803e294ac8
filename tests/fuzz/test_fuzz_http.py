"""Fuzzing every HTTP entry point: the act endpoint, the rack order, the table and profile
forms, the lobby's table buttons, and the query strings of every page.

Properties for every input: never a 500, nothing logged at ERROR, and a refused input changes
nothing; after the run the site still answers a legal move normally.
"""

from __future__ import annotations

import random

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from accounts.forms import ProfileForm
from games.engine import GAMES
from games.models import Action, Game, Seat, Table
from games.presenters import PRESENTERS, presenter_for
from games.tables import lifecycle
from games.tables.forms import TableForm
from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text, form_data, is_ascii_number, number_fields, query
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
VIEWERS = ("mover", "waiting", "spectator", "anonymous")


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


# Options that let play start at once (Remi's doubla prelude would make every seat a mover).
START_AT_ONCE = {"remi": {"doubla": False}}


@pytest.fixture(params=sorted(PRESENTERS))
def game(request, alice, bob) -> Game:
    """A started two-seat game of every game the site presents."""
    key = request.param
    table = lifecycle.create_table(
        alice, game_type=key, seat_count=2, options=START_AT_ONCE.get(key, {})
    )
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def mover_of(game: Game) -> int:
    (seat,) = Game.objects.get(pk=game.pk).to_act
    return seat


@pytest.fixture
def clients(alice, bob, carol, game) -> dict[str, Client]:
    first = mover_of(game)
    users = [alice, bob]
    return {
        "mover": client_for(users[first]),
        "waiting": client_for(users[1 - first]),
        "spectator": client_for(carol),
        "anonymous": client_for(None),
    }


def snapshot(game: Game) -> tuple[int, dict, int]:
    fresh = Game.objects.get(pk=game.pk)
    return fresh.version, fresh.state, Action.objects.filter(game=game).count()


def assert_answered(response, error_log) -> None:
    assert response.status_code < 500, response.content[:500]
    assert error_log.take() == []


def play_a_legal_move(game: Game, clients: dict[str, Client]) -> None:
    """The site still plays normally: the player to move types the engine's own default move
    (its timeout action, always legal) into the act view."""
    fresh = Game.objects.get(pk=game.pk)
    engine = GAMES[fresh.table.game_type]
    action = engine.timeout_action(engine.load(fresh.state), mover_of(fresh))
    response = clients["mover"].post(
        f"/games/{game.pk}/act/",
        {"version": fresh.version, "verb": "notation", "notation": str(action)},
        **HTMX,
    )
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == fresh.version + 1


@fuzz_settings(1300)
@given(draw=st.data(), viewer=st.sampled_from(VIEWERS), htmx=st.booleans())
def test_fuzz_the_act_endpoint(game, clients, error_log, count_input, draw, viewer, htmx):
    count_input()
    form = presenter_for(game.table.game_type).action_form
    data = draw.draw(form_data(form))
    before = snapshot(game)
    response = clients[viewer].post(f"/games/{game.pk}/act/", data, **(HTMX if htmx else {}))
    assert_answered(response, error_log)
    after = snapshot(game)
    if after != before:
        # Only a real move may change the game: one version, one logged action, by a seated
        # player (the mover, or another seat making a move a game allows out of turn, such
        # as Remi's twin declaration). A plain form post is answered with a redirect to the game.
        assert viewer in ("mover", "waiting")
        assert response.status_code == (200 if htmx else 302)
        assert after[0] == before[0] + 1 and after[2] == before[2] + 1
        # ... and its numbers were written as a page writes them ("٢" is no version).
        assert all(is_ascii_number(data[name]) for name in number_fields(form) if name in data)


def test_after_fuzzing_the_act_endpoint_a_legal_move_still_plays(game, clients, error_log):
    for data in ({"verb": "notation"}, {"version": "²", "verb": "draw"}, {"notation": "x" * 9999}):
        assert_answered(clients["mover"].post(f"/games/{game.pk}/act/", data, **HTMX), error_log)
    play_a_legal_move(game, clients)


@fuzz_settings(400)
@given(
    viewer=st.sampled_from(VIEWERS),
    data=st.dictionaries(st.sampled_from(["order", "version"]) | any_text, any_text, max_size=3),
)
def test_fuzz_the_rack_order(game, clients, error_log, count_input, viewer, data):
    count_input()
    orders = list(Seat.objects.filter(table=game.table).values_list("rack_order", flat=True))
    response = clients[viewer].post(f"/games/{game.pk}/rack/", data, **HTMX)
    assert_answered(response, error_log)
    if response.status_code >= 400:
        assert (
            list(Seat.objects.filter(table=game.table).values_list("rack_order", flat=True))
            == orders
        )


# Words a draft is made of, so some inputs get past the form to the tile checks and the judge.
TILE_WORDS = st.lists(
    st.sampled_from(["R1", "R10", "K13", "Y7", "B12", "J", "J=R5", "|", "R0", "X"]), max_size=30
).map(" ".join)


@fuzz_settings(400)
@given(
    viewer=st.sampled_from(VIEWERS),
    data=st.dictionaries(
        st.sampled_from(["version", "table", "rack", "reset"]) | any_text,
        st.just("0") | TILE_WORDS | any_text,
        max_size=4,
    ),
)
def test_fuzz_the_draft(game, clients, error_log, count_input, viewer, data):
    """The draft of a turn (404 for a game without one): only the mover's own seat may
    change, and the game never does."""
    count_input()
    before = snapshot(game)
    orders = dict(Seat.objects.filter(table=game.table).values_list("position", "rack_order"))
    response = clients[viewer].post(f"/games/{game.pk}/draft/", data, **HTMX)
    assert_answered(response, error_log)
    assert snapshot(game) == before
    after = dict(Seat.objects.filter(table=game.table).values_list("position", "rack_order"))
    changed = {seat for seat in after if after[seat] != orders[seat]}
    if response.status_code >= 400:
        assert not changed
    else:
        assert changed <= {mover_of(game)}


@fuzz_settings(500)
@given(data=form_data(TableForm, extra_fields=["action"]), htmx=st.booleans())
def test_fuzz_the_new_table_form(alice, error_log, count_input, data, htmx):
    count_input()
    client = client_for(alice)
    tables = Table.objects.count()
    response = client.post("/tables/new/", data, **(HTMX if htmx else {}))
    assert_answered(response, error_log)
    if Table.objects.count() != tables:
        assert Table.objects.count() == tables + 1
        assert response.status_code in (200, 302)  # a redirect (or htmx redirect) to it
    # Keep within the open-table cap so valid forms keep reaching the engine's checks.
    Table.objects.filter(owner=alice).delete()


@fuzz_settings(500)
@given(data=form_data(ProfileForm))
def test_fuzz_the_profile_form(alice, error_log, count_input, data):
    count_input()
    client = client_for(alice)
    fields = ProfileForm.Meta.fields

    def profile() -> dict:
        return {name: getattr(type(alice).objects.get(pk=alice.pk), name) for name in fields}

    before = profile()
    response = client.post("/profile/", data)
    assert_answered(response, error_log)
    if response.status_code != 302:  # refused: the form is shown again with its errors
        assert profile() == before


@fuzz_settings(500)
@given(
    button=st.sampled_from(["join", "leave", "start"]),
    viewer=st.sampled_from(("owner", "guest", "anonymous")),
    data=st.dictionaries(any_text, any_text, max_size=3),
)
def test_fuzz_the_table_buttons(alice, bob, error_log, count_input, button, viewer, data):
    count_input()
    table = lifecycle.create_table(alice, seat_count=3)
    client = client_for({"owner": alice, "guest": bob, "anonymous": None}[viewer])
    response = client.post(f"/tables/{table.pk}/{button}/", data, **HTMX)
    assert_answered(response, error_log)
    Table.objects.filter(pk=table.pk).delete()


@pytest.fixture
def pages(alice, bob, game) -> list[str]:
    private = lifecycle.create_table(alice, seat_count=2, is_public=False)
    finished = two_player_game(alice, bob)
    rng = random.Random(3)
    from tests.games.test_game_replay import play_to_the_end

    play_to_the_end(finished, seed=rng.randrange(100))
    return [
        "/",
        "/lobby/",
        "/tables/new/",
        f"/tables/{game.table_id}/",
        f"/tables/{private.pk}/",
        f"/join/{private.invite_code}/",
        "/join/not-a-code/",
        "/games/mine/",
        f"/games/{game.pk}/",
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/replay/",
        f"/games/{game.pk}/deal/",
        f"/games/{finished.pk}/deal/",
        "/fair-deals/",
        "/profile/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/games/999999999999999999/",
        "/tables/0/",
    ]


hosts = st.one_of(st.just("localhost"), st.just("127.0.0.1:8000"), any_text.map(lambda t: t[:300]))


@fuzz_settings(1300)
@given(
    data=st.data(),
    viewer=st.sampled_from(VIEWERS),
    params=query,
    htmx=st.booleans(),
    host=hosts,
)
def test_fuzz_the_query_strings_of_every_page(
    pages, clients, error_log, count_input, data, viewer, params, htmx, host
):
    count_input()
    page = data.draw(st.sampled_from(pages))
    headers = {"HTTP_HOST": host, **(HTMX if htmx else {})}
    response = clients[viewer].get(page, params, **headers)
    assert_answered(response, error_log)
