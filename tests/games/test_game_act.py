"""Moves from the game page: the act view, arranging the rack and dealing the next game."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from games.engine import IllegalAction, InvalidAction, NotYourTurn, remi
from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.engine.remi.state import State
from games.models import Action, Game, Seat, Table
from games.play import services
from games.presenters.remi.forms import ActionForm
from games.presenters.remi.forms import notation as _notation
from games.presenters.remi.refusals import message_for
from games.tables import lifecycle

HTMX = {"HTTP_HX_REQUEST": "true"}
PARTS = ("game-status", "game-players", "game-melds", "game-row", "game-rack", "game-controls")


@pytest.fixture
def players(alice, bob, started):
    """(the user to move first, their seat, the other user)."""
    first = started.state["first_player"]
    users = [alice, bob]
    return users[first], first, users[1 - first]


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def act(client, game: Game, **fields):
    return client.post(f"/games/{game.pk}/act/", fields, **HTMX)


def error_text(html: str) -> str:
    match = re.search(r'<p id="game-error"[^>]*>(.*?)</p>', html, re.S)
    return match.group(1).strip() if match else ""


def assert_unchanged(game: Game, before: Game) -> None:
    after = fresh(game)
    assert (after.version, after.state) == (before.version, before.state)
    assert Action.objects.filter(game=game).count() == before.version  # one row per version


# --- Moves ----------------------------------------------------------------------------------


def test_a_legal_move_applies_and_answers_with_every_part_out_of_band(client, players, started):
    user, seat, _ = players
    tile = started.state["racks"][seat].split()[0]
    client.force_login(user)
    response = act(client, started, version=0, verb="discard", tiles=tile)
    assert response.status_code == 200
    html = response.content.decode()
    for part in PARTS:
        assert re.search(rf'<section id="{part}"[^>]*hx-swap-oob="true"', html), part
    assert response.headers["HX-Trigger"] == '{"remi:acted": {}}'
    game = fresh(started)
    assert game.version == 1
    assert game.state["discards"] == tile
    assert 'class="game-status" data-version="1"' in html


def test_a_move_can_be_typed_in_notation(client, players, started):
    user, seat, _ = players
    tile = started.state["racks"][seat].split()[-1]
    client.force_login(user)
    response = act(client, started, version=0, verb="notation", notation=f"discard {tile}")
    assert response.status_code == 200
    assert fresh(started).state["discards"] == tile


def test_an_illegal_move_shows_the_engines_message_and_changes_nothing(client, players, started):
    user, _, _ = players
    client.force_login(user)
    before = fresh(started)
    response = act(client, started, version=0, verb="draw")
    assert response.status_code == 200
    html = response.content.decode()
    with pytest.raises(IllegalAction) as refusal:  # the first player must open with a discard
        remi.apply(State.from_dict(before.state), before.state["first_player"], "draw")
    # The engine gives the code; the page shows the presentation's sentence for it.
    names = before.state["seats"]
    assert error_text(html) == escape(message_for(refusal.value, names))
    assert 'id="game-controls"' in html
    assert 'id="game-rack"' not in html  # nothing changed, so only the controls come back
    assert_unchanged(started, before)


def test_a_stale_version_says_the_game_moved_on_and_sends_a_fresh_view(client, players, started):
    _, seat, other = players
    tile = started.state["racks"][seat].split()[0]
    services.play(started.pk, seat, f"discard {tile}", 0)
    before = fresh(started)
    client.force_login(other)
    response = act(client, started, version=0, verb="draw")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The game has moved on" in error_text(html)
    assert 'class="game-status" data-version="1"' in html
    for part in PARTS:
        assert f'id="{part}"' in html
    assert_unchanged(started, before)


@pytest.mark.parametrize(
    "language,moved_on,watching",
    [
        ("ro", "Jocul a mers mai departe", "Urmărești jocul: doar jucătorii pot muta."),
        ("hu", "A játék továbblépett", "Csak nézed a játékot: lépni csak a játékosok tudnak."),
    ],
)
def test_the_moved_on_and_watching_answers_are_in_the_readers_language(
    client, players, started, carol, language, moved_on, watching
):
    """Issue 30, fault 3: both were plain English strings on every page."""
    _, seat, other = players
    tile = started.state["racks"][seat].split()[0]
    services.play(started.pk, seat, f"discard {tile}", 0)
    for user in (other, carol):
        user.preferred_language = language
        user.save(update_fields=["preferred_language"])
    client.force_login(other)
    stale = act(client, started, version=0, verb="draw").content.decode()
    assert moved_on in error_text(stale)
    assert "The game has moved on" not in stale
    client.force_login(carol)
    watched = act(client, started, version=1, verb="draw")
    assert watched.status_code == 403
    assert watching in watched.content.decode()


def test_another_seats_move_is_refused_as_not_their_turn(client, players, started):
    _, seat, other = players
    client.force_login(other)
    before = fresh(started)
    tile = started.state["racks"][1 - seat].split()[0]
    response = act(client, started, version=0, verb="discard", tiles=tile)
    assert response.status_code == 200
    with pytest.raises(NotYourTurn) as refusal:
        remi.apply(State.from_dict(before.state), 1 - seat, f"discard {tile}")
    assert refusal.value.params == {"turn": seat}
    names = before.state["seats"]
    assert error_text(response.content.decode()) == escape(message_for(refusal.value, names))
    assert error_text(response.content.decode()) == escape(f"It is {names[seat]}'s turn.")
    assert_unchanged(started, before)


def test_a_tile_not_on_the_rack_is_refused(client, players, started):
    user, seat, _ = players
    held = set(started.state["racks"][seat].split())
    missing = next(f"R{n}" for n in range(1, 14) if f"R{n}" not in held)
    client.force_login(user)
    before = fresh(started)
    response = act(client, started, version=0, verb="discard", tiles=missing)
    assert response.status_code == 200
    assert error_text(response.content.decode())
    assert_unchanged(started, before)


def test_a_selection_that_cannot_make_the_move_is_explained(client, players, started):
    user, _, _ = players
    client.force_login(user)
    before = fresh(started)
    response = act(client, started, version=0, verb="discard")
    assert error_text(response.content.decode()) == "Select the one tile to discard."
    response = act(client, started, version=0, verb="add", tiles="R1")
    assert "Click a meld" in error_text(response.content.decode())
    assert_unchanged(started, before)


@pytest.mark.parametrize(
    "fields",
    [
        {"verb": "draw"},  # no version
        {"verb": "draw", "version": "abc"},
        {"verb": "draw", "version": "-1"},
        {"verb": "fly", "version": "0"},
        {"version": "0"},  # no verb
        {"verb": "notation", "version": "0", "notation": "discard R1 " * 1000},
        {"verb": "discard", "version": "0", "tiles": "Z99"},
        {"verb": "discard", "version": "0", "tiles": "R1 " * 5000},
        {"verb": "add", "version": "0", "tiles": "R1", "meld": "x"},
        {"verb": "pick", "version": "0", "tiles": "R1 R2", "row": "99999999999999999999"},
    ],
)
def test_malformed_form_data_is_a_400_with_a_message_and_changes_nothing(
    client, players, started, fields
):
    user, _, _ = players
    client.force_login(user)
    before = fresh(started)
    response = act(client, started, **fields)
    assert response.status_code == 400
    assert "could not be read" in error_text(response.content.decode())
    assert_unchanged(started, before)


def test_a_spectator_cannot_move(client, carol, started):
    client.force_login(carol)
    before = fresh(started)
    response = act(client, started, version=0, verb="draw")
    assert response.status_code == 403
    assert_unchanged(started, before)


def test_acting_needs_a_post(client, players, started):
    user, _, _ = players
    client.force_login(user)
    assert client.get(f"/games/{started.pk}/act/").status_code == 405


def test_a_move_without_htmx_redirects_back_to_the_game(client, players, started):
    user, seat, _ = players
    tile = started.state["racks"][seat].split()[0]
    client.force_login(user)
    response = client.post(
        f"/games/{started.pk}/act/", {"version": 0, "verb": "discard", "tiles": tile}
    )
    assert response.status_code == 302
    assert response["Location"] == started.get_absolute_url()


def test_a_move_request_makes_a_bounded_number_of_queries(
    client, players, started, django_assert_max_num_queries
):
    # Measured: 10 on SQLite (user; savepoint, the game read for update, the seats, the seat
    # clocks' end and start, the conditional update, the action row, release; the log for
    # the answer); the session comes from the cache, and the checks before the move use the
    # game and seats the move is made on.  A little headroom, so a new N+1 shows up at once.
    user, seat, _ = players
    tile = started.state["racks"][seat].split()[0]
    client.force_login(user)
    with django_assert_max_num_queries(12):
        response = act(client, started, version=0, verb="discard", tiles=tile)
    assert response.status_code == 200


def test_a_move_request_sorts_nothing_by_way_of_the_table(client, players, started):
    # The models' orderings start with the table, whose own ordering is its creation time: a
    # game or its seats read by that ordering join the table in and sort by it, for rows of
    # one table.  The move's reads ask by key and by seat position.
    user, seat, _ = players
    tile = started.state["racks"][seat].split()[0]
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = act(client, started, version=0, verb="discard", tiles=tile)
    assert response.status_code == 200
    statements = [query["sql"] for query in queries.captured_queries]
    seat_reads = [sql for sql in statements if sql.startswith('SELECT "games_seat"')]
    assert seat_reads, statements
    assert all("games_table" not in sql for sql in seat_reads), seat_reads
    assert not [sql for sql in statements if 'ORDER BY "games_table"' in sql], statements


# --- Arranging the rack ---------------------------------------------------------------------


def test_arranging_the_rack_saves_the_order_shown_next_time(client, players, started):
    user, seat, _ = players
    order = list(reversed(started.state["racks"][seat].split()))
    client.force_login(user)
    response = client.post(f"/games/{started.pk}/rack/", {"order": " ".join(order)}, **HTMX)
    assert response.status_code == 204
    saved = Seat.objects.get(table=started.table, position=seat).rack_order
    assert saved == {"game": started.pk, "tiles": order}
    page = client.get(started.get_absolute_url()).content.decode()
    rack = re.search(r'<section id="game-rack".*?</section>', page, re.S).group(0)
    assert re.findall(r'data-tile="([^"]+)"', rack) == order


@pytest.mark.parametrize(
    "mangle",
    [
        lambda tiles: tiles[1:],  # a tile missing
        lambda tiles: [*tiles, tiles[0]],  # a tile twice
        lambda tiles: [*tiles[1:], "J" if tiles[0] != "J" else "R1"],  # a tile swapped
        lambda tiles: ["Q7", *tiles],  # not a tile
        lambda tiles: [],
    ],
)
def test_an_order_that_is_not_the_rack_is_refused(client, players, started, mangle):
    user, seat, _ = players
    tiles = started.state["racks"][seat].split()
    client.force_login(user)
    response = client.post(f"/games/{started.pk}/rack/", {"order": " ".join(mangle(tiles))})
    assert response.status_code == 400
    assert Seat.objects.get(table=started.table, position=seat).rack_order == []


def test_a_rack_order_saved_in_one_game_does_not_rearrange_the_next_deal(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    Seat.objects.filter(table=table, position=0).update(
        rack_order={"game": game.pk + 1000, "tiles": ["K13", "K12", "K11"]}
    )
    client.force_login(alice)
    page = client.get(game.get_absolute_url()).content.decode()
    rack = re.search(r'<section id="game-rack".*?</section>', page, re.S).group(0)
    shown = re.findall(r'data-tile="([^"]+)"', rack)
    colours = "RYBKJ"
    assert shown == sorted(shown, key=lambda t: (colours.index(t[0]), int(t[1:] or 0)))


def test_a_spectator_has_no_rack_to_arrange(client, carol, started):
    client.force_login(carol)
    response = client.post(f"/games/{started.pk}/rack/", {"order": "R1"})
    assert response.status_code == 403


# --- The end of a game and the next one -----------------------------------------------------


def near_the_end(game: Game, seat: int) -> None:
    """Put ``seat`` one discard from going out (both players have melded)."""
    names = [s.display_name for s in game.table.seats.select_related("user")]
    state = scenario.position(
        racks=["R5", "K9 K10 K11 B2"] if seat == 0 else ["K9 K10 K11 B2", "R5"],
        rules=REMI.with_options(doubla=False, series_games=2),
        melds=[("Y1 Y2 Y3", 0), ("B7 B8 B9", 1)],
        melded=[0, 1],
        turn=seat,
        phase="play",
        names=names,
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[seat])


@pytest.fixture
def series_of_two(alice, bob) -> Game:
    table = lifecycle.create_table(
        alice, seat_count=2, options={"doubla": False, "series_games": 2}
    )
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def test_going_out_shows_every_rack_the_scores_and_a_next_game_button(client, alice, series_of_two):
    near_the_end(series_of_two, 0)
    client.force_login(alice)
    response = act(client, series_of_two, version=0, verb="discard", tiles="R5")
    assert response.status_code == 200
    html = response.content.decode()
    result = re.search(r'<section id="game-result".*?</section>', html, re.S).group(0)
    assert "Alice went out!" in result
    for tile in ("black 9", "black 10", "black 11", "blue 2"):
        assert f'aria-label="{tile}"' in result  # the loser's rack is turned over
    assert 'id="next-game"' in result
    assert "Replay this game" in result
    game = fresh(series_of_two)
    assert game.status == Game.Status.FINISHED


def test_the_next_game_button_deals_the_next_game_and_goes_there(client, alice, series_of_two):
    near_the_end(series_of_two, 0)
    services.play(series_of_two.pk, 0, "discard R5", 0)
    client.force_login(alice)
    response = client.post(f"/games/{series_of_two.pk}/next/", **HTMX)
    assert response.status_code == 200
    new = Game.objects.get(table=series_of_two.table, number=1)
    assert response["HX-Redirect"] == new.get_absolute_url()
    # Pressing it again (or from the other player's page) leads to the same game.
    again = client.post(f"/games/{series_of_two.pk}/next/")
    assert again.status_code == 302
    assert again["Location"] == new.get_absolute_url()
    assert Game.objects.filter(table=series_of_two.table).count() == 2
    # The finished game's page now links to it.
    page = client.get(series_of_two.get_absolute_url()).content.decode()
    assert f'href="{new.get_absolute_url()}"' in page


def test_a_spectator_cannot_deal_the_next_game(client, carol, series_of_two):
    near_the_end(series_of_two, 0)
    services.play(series_of_two.pk, 0, "discard R5", 0)
    client.force_login(carol)
    assert client.post(f"/games/{series_of_two.pk}/next/").status_code == 403


# --- From form fields to notation -----------------------------------------------------------


def form_data(**fields) -> dict:
    form = ActionForm({"version": "0", **fields})
    assert form.is_valid(), form.errors
    return form.cleaned_data


@pytest.mark.parametrize(
    ("fields", "notation"),
    [
        ({"verb": "draw"}, "draw"),
        ({"verb": "take", "tiles": "R1"}, "take"),  # a stray selection does not matter
        ({"verb": "discard", "tiles": "k13"}, "discard K13"),
        ({"verb": "meld", "tiles": "R1 R2 R3 | K5 B5 J"}, "meld R1 R2 R3 | K5 B5 J"),
        ({"verb": "meld", "tiles": "R12 R13 J=R11 |"}, "meld R12 R13 J=R11"),
        ({"verb": "add", "meld": "3", "tiles": "R4 J=R5"}, "add 3 R4 J=R5"),
        ({"verb": "swap", "meld": "2", "tiles": "B8 | K8 Y8"}, "swap 2 B8 into J K8 Y8"),
        ({"verb": "pick", "row": "1", "tiles": "B5 B6"}, "pick 1 B7 B5 B6"),
        ({"verb": "doubla", "tiles": "R5 R5", "label": "low"}, "doubla R5 low"),
        ({"verb": "doubla", "tiles": "R5"}, "doubla R5"),
        ({"verb": "exchange", "seat": "2"}, "exchange 2"),
        ({"verb": "notation", "notation": " meld R1 R2 R3 "}, "meld R1 R2 R3"),
    ],
)
def test_form_fields_become_the_engines_notation(fields, notation):
    assert _notation(form_data(**fields), {"discards": "Y9 B7"}) == notation


@pytest.mark.parametrize(
    "fields",
    [
        {"verb": "swap", "meld": "2", "tiles": "B8 K8 Y8"},  # no bar between the two parts
        {"verb": "pick", "row": "5", "tiles": "B5 B6"},  # no such row tile
        {"verb": "pick", "row": "1", "tiles": "B5"},
        {"verb": "doubla", "tiles": "R5 R6"},
        {"verb": "exchange"},
        {"verb": "notation", "notation": "  "},
    ],
)
def test_a_selection_that_cannot_make_the_move_is_the_players_slip(fields):
    with pytest.raises(InvalidAction):
        _notation(form_data(**fields), {"discards": "Y9 B7"})


def test_the_prelude_offers_doubla_and_ready(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(bob)
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'value="doubla"' in html and 'name="label"' in html and 'value="ready"' in html
    assert 'value="draw"' not in html  # play's buttons wait for the prelude to end
    assert "Waiting for Alice, bob to say ready." in html
    response = act(client, game, version=0, verb="ready")
    assert response.status_code == 200
    assert fresh(game).state["ready"][1] is True
    assert "Waiting for Alice to say ready." in response.content.decode()


def test_a_timed_table_shows_the_move_clock(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False}, move_seconds=60)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    assert re.search(r'<time datetime="[^"]+" data-deadline="[^"]+">', html)


def test_a_stale_move_after_the_game_ended_still_says_it_moved_on(client, alice, series_of_two):
    near_the_end(series_of_two, 0)
    services.play(series_of_two.pk, 0, "discard R5", 0)
    client.force_login(alice)
    response = act(client, series_of_two, version=0, verb="draw")
    assert response.status_code == 200
    assert "The game has moved on" in error_text(response.content.decode())


def test_a_moves_announcement_reads_only_whether_its_table_is_a_tournaments(
    players, started, django_capture_on_commit_callbacks
):
    # The badges and the turn email use the table and seats the move already holds.  A table
    # no tournament seated (not ``arranged``) asks nothing more; a match's table asks the
    # tournament's page one unjoined, unordered question by the table.
    def announcement_queries(version: int) -> list[str]:
        game = Game.objects.get(pk=started.pk)
        (seat,) = game.to_act
        rules = services.game_of(game.table)
        move = str(rules.timeout_action(rules.load(game.state), seat))
        with django_capture_on_commit_callbacks() as callbacks:
            services.play(started.pk, seat, move, version)
        with CaptureQueriesContext(connection) as queries:
            for callback in callbacks:
                callback()
        return [query["sql"] for query in queries.captured_queries]

    assert announcement_queries(0) == []

    Table.objects.filter(pk=started.table_id).update(arranged=True)
    statements = announcement_queries(1)
    assert len(statements) == 1, statements
    assert "tournaments_match" in statements[0]
    assert "JOIN" not in statements[0] and "ORDER BY" not in statements[0]
