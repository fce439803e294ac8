"""The tile rummy on the site: its game page, Done / Draw through the act view, the private
draft (saved on the drafting seat, judged by the engine, never shown to anyone else), and the
socket rendering each seat its own view."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client
from django.utils.html import escape

from games.engine.rummikub import GAME
from games.engine.rummikub.scenario import position
from games.models import Action, Game, Seat
from games.tables import lifecycle
from tests.games.test_game_consumer import session_cookie, socket

HTMX = {"HTTP_HX_REQUEST": "true"}


def rummikub_game(alice, bob, **position_args) -> Game:
    """Alice (seat 0) and Bob (seat 1) at a tile rummy table, in a position set from
    notation (Alice to play unless told otherwise)."""
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = position(names=["alice", "bob"], **position_args)
    Game.objects.filter(pk=game.pk).update(state=GAME.dump(state))
    return Game.objects.select_related("table").get(pk=game.pk)


@pytest.fixture
def opening(alice, bob) -> Game:
    """Alice has a 30-point first meld in hand; Bob holds tiles nobody else may see."""
    return rummikub_game(
        alice,
        bob,
        racks=["R10 R11 R12 K2 B5", "Y1 Y2 Y9 B13 K13"],
        stock="K7 K8 K9 Y4 Y5 Y6",
    )


@pytest.fixture
def melded_table(alice, bob) -> Game:
    """Both have melded; Alice can rearrange: R5 extends the run, whose R9 makes a set with
    her K9 and B9."""
    game = rummikub_game(
        alice,
        bob,
        racks=["R5 K9 B9 B1", "Y1 Y2 Y9 B13 K13"],
        table=["R6 R7 R8 R9", "K5 B5 Y5"],
        stock="K7 Y4 Y6",
        melded=[0, 1],
    )
    # The log's last play is the one that left this table (what "changed" is measured by).
    last_play = {"code": "played", "seat": 1, "params": {"tiles": ["K5", "B5", "Y5"]}}
    last_play["params"].update(count=3, table=["R6 R7 R8 R9", "Y5 B5 K5"])
    Action.objects.create(game=game, version=1, seat=1, notation="play", events=[last_play])
    Game.objects.filter(pk=game.pk).update(version=1)
    return Game.objects.select_related("table").get(pk=game.pk)


REARRANGED = "R5 R6 R7 R8 | K5 B5 Y5 | R9 K9 B9"


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def act(client, game: Game, **fields):
    return client.post(f"/games/{game.pk}/act/", fields, **HTMX)


def draft(client, game: Game, **fields):
    return client.post(f"/games/{game.pk}/draft/", fields, **HTMX)


def error_text(html: str) -> str:
    match = re.search(r'<p id="game-error"[^>]*>(.*?)</p>', html, re.S)
    return match.group(1).strip() if match else ""


def rack_of(html: str) -> list[str]:
    section = re.search(r'<section id="game-rack".*?</section>', html, re.S)
    assert section is not None
    return re.findall(r'data-tile="([^"]+)"', section.group(0))


# --- The page -------------------------------------------------------------------------------


def test_the_page_shows_the_players_own_rack_and_the_table(client, alice, opening):
    client.force_login(alice)
    html = client.get(f"/games/{opening.pk}/").content.decode()
    assert sorted(rack_of(html)) == sorted(["R10", "R11", "R12", "K2", "B5"])
    assert "Your turn" in html
    assert "First melds: 0 of 30 points." in html
    for tile in ("Y9", "B13", "K13"):  # Bob's rack
        assert f'data-tile="{tile}"' not in html


# --- Done, Draw and refusals through the act view -------------------------------------------


def test_done_with_a_valid_first_meld_plays_it(client, alice, opening):
    client.force_login(alice)
    response = act(client, opening, version=0, verb="play", table="R10 R11 R12")
    assert response.status_code == 200
    game = fresh(opening)
    assert game.version == 1
    state = GAME.load(game.state)
    assert [m.notation() for m in state.table] == ["R10 R11 R12"]
    assert state.melded[0]
    html = response.content.decode()
    assert "You played 3 tiles: R10 R11 R12. First melds worth 33." in html


def test_an_invalid_play_is_taken_back_with_the_penalty_draw(client, alice, opening):
    client.force_login(alice)
    response = act(client, opening, version=0, verb="play", table="R10 R11 K2")
    assert response.status_code == 200
    state = GAME.load(fresh(opening).state)
    assert state.table == []
    assert len(state.racks[0]) == 5 + 3  # every tile back, three drawn
    html = response.content.decode()
    assert "Your turn is taken back (meld 1: neither a run nor a set)." in html
    assert "You drew Y6 Y5 Y4." in html  # the drawer reads their tiles


def test_a_refused_play_changes_nothing_and_says_why(client, alice, opening):
    client.force_login(alice)
    before = fresh(opening)
    response = act(client, opening, version=0, verb="play", table="R10 R11 R12 R13")
    assert response.status_code == 200
    assert error_text(response.content.decode()) == "Not on your rack: R13."
    after = fresh(opening)
    assert (after.version, after.state) == (before.version, before.state)
    assert not Action.objects.filter(game=opening).exists()


def test_playing_out_of_turn_is_refused_with_whose_turn_it_is(client, bob, opening):
    client.force_login(bob)
    response = act(client, opening, version=0, verb="draw")
    assert error_text(response.content.decode()) == escape("It is alice's turn.")
    assert fresh(opening).version == 0


def test_draw_passes_the_turn_and_only_the_drawer_sees_the_tile(client, alice, bob, opening):
    client.force_login(alice)
    response = act(client, opening, version=0, verb="draw")
    assert response.status_code == 200
    assert "You drew Y6." in response.content.decode()
    client.force_login(bob)
    html = client.get(f"/games/{opening.pk}/").content.decode()
    assert "alice drew 1 tile." in html
    log = re.search(r'<section id="game-log".*?</section>', html, re.S)
    assert log is not None and "Y6" not in log.group(0)
    assert "Y6" not in rack_of(html)


def test_done_with_an_empty_table_is_a_slip_not_a_penalty(client, alice, opening):
    client.force_login(alice)
    response = act(client, opening, version=0, verb="play", table="")
    assert "Put tiles from your rack on the table first, or draw." in response.content.decode()
    assert fresh(opening).version == 0


# --- The draft ------------------------------------------------------------------------------


def test_a_draft_is_judged_saved_and_found_again_after_a_reload(client, alice, opening):
    client.force_login(alice)
    response = draft(client, opening, version=0, table="R10 R11 | K2", rack="R12 B5")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count("draft-meld invalid") == 2
    assert "a meld needs at least three tiles" in html
    assert "First melds: 0 of 30 points." in html
    page = client.get(f"/games/{opening.pk}/").content.decode()
    assert "a meld needs at least three tiles" in page
    assert rack_of(page) == ["R12", "B5"]
    assert fresh(opening).version == 0  # a draft is no move

    html = draft(client, opening, version=0, table="R10 R11 R12", rack="K2 B5").content.decode()
    assert "draft-meld invalid" not in html
    assert "First melds: 33 of 30 points." in html


def test_each_invalid_meld_is_marked_with_its_reason(client, alice, opening):
    client.force_login(alice)
    html = draft(client, opening, version=0, table="K2 R10 R11 | R12", rack="B5").content
    text = html.decode()
    assert text.count('class="meld draft-meld invalid"') == 2
    assert "neither a run nor a set" in text
    assert "a meld needs at least three tiles" in text


def test_a_first_meld_below_the_minimum_is_warned_before_done(client, alice, bob):
    game = rummikub_game(alice, bob, racks=["R1 R2 R3 K9", "Y1 Y2 Y9"], stock="K7 Y4 Y6")
    client.force_login(alice)
    html = draft(client, game, version=0, table="R1 R2 R3", rack="K9").content.decode()
    assert "First melds: 6 of 30 points." in html
    assert "first melds worth 6 of the 30 needed" in html
    assert "Done would take the turn back and cost the penalty draw" in html


def test_a_rearrangement_is_judged_as_the_engine_would(client, alice, melded_table):
    client.force_login(alice)
    html = draft(client, melded_table, version=1, table=REARRANGED, rack="B1").content.decode()
    assert "draft-meld invalid" not in html
    assert "draft-faults" not in html
    assert "First melds" not in html  # she made them long ago
    moved = draft(
        client, melded_table, version=1, table="R6 R7 R8 | R9 | K5 B5 Y5", rack="R5 K9 B9 B1"
    ).content.decode()
    assert "You placed no tile from your rack: play one, or draw." in moved


def test_a_table_tile_taken_back_to_the_rack_is_flagged(client, alice, melded_table):
    client.force_login(alice)
    html = draft(
        client, melded_table, version=1, table="R6 R7 R8 | K5 B5 Y5", rack="R9 R5 K9 B9 B1"
    ).content.decode()
    assert "Tiles on the table never go back to a rack: R9." in html


def test_a_draft_that_is_not_the_players_tiles_is_refused_and_saves_nothing(client, alice, opening):
    client.force_login(alice)
    before = Seat.objects.get(table=opening.table, position=0).rack_order
    for table, rack in (("R10 R11 R12 R13", "K2 B5"), ("R10 R11", "K2 B5"), ("X9", "")):
        response = draft(client, opening, version=0, table=table, rack=rack)
        assert response.status_code == 400
        assert Seat.objects.get(table=opening.table, position=0).rack_order == before


def test_reset_goes_back_to_the_start_of_the_turn(client, alice, opening):
    client.force_login(alice)
    draft(client, opening, version=0, table="R10 R11 R12", rack="K2 B5")
    html = draft(client, opening, version=0, reset="on").content.decode()
    assert 'class="meld draft-meld' not in html
    assert sorted(rack_of(html)) == sorted(["R10", "R11", "R12", "K2", "B5"])


def test_only_the_seat_to_play_may_draft_and_others_never_see_it(client, alice, bob, opening):
    client.force_login(bob)
    response = draft(client, opening, version=0, table="Y1 Y2", rack="Y9 B13 K13")
    assert response.status_code == 400
    assert "on your turn only" in response.content.decode()

    client.force_login(alice)
    draft(client, opening, version=0, table="R10 R11 R12", rack="B5 K2")
    client.force_login(bob)
    html = client.get(f"/games/{opening.pk}/").content.decode()
    shown = re.findall(r'data-tile="([^"]+)"', html)
    assert "R10" not in shown and "draft-meld" not in html and "your draft" not in html
    assert "No melds on the table yet." in html


def test_a_spectator_has_no_draft(client, carol, opening):
    client.force_login(carol)
    response = draft(client, opening, version=0, table="R10 R11 R12", rack="K2 B5")
    assert response.status_code == 403


def test_a_stale_draft_is_answered_with_the_current_position(client, alice, opening):
    client.force_login(alice)
    response = draft(client, opening, version=7, table="R10 R11 R12", rack="K2 B5")
    assert "The game has moved on" in response.content.decode()
    assert Seat.objects.get(table=opening.table, position=0).rack_order == []


def test_a_draft_from_an_earlier_turn_is_forgotten(client, alice, bob, opening):
    client.force_login(alice)
    draft(client, opening, version=0, table="R10 R11 R12", rack="K2 B5")
    act(client, opening, version=0, verb="draw")
    client.force_login(bob)
    act(client, opening, version=1, verb="draw")
    client.force_login(alice)
    html = client.get(f"/games/{opening.pk}/").content.decode()
    assert 'class="meld draft-meld' not in html
    assert "No melds" not in html  # her turn: the (empty) draft area, not the plain table


# --- What the others see after a play -------------------------------------------------------


@pytest.mark.parametrize("viewer", ["bob", "carol"])
def test_others_see_the_tiles_played_and_the_melds_changed(
    client, alice, bob, carol, melded_table, viewer
):
    """Bob, whose turn it is now, sees the marks on his (untouched) draft; Carol, watching,
    on the table."""
    client.force_login(alice)
    act(client, melded_table, version=1, verb="play", table=REARRANGED)
    client.force_login({"bob": bob, "carol": carol}[viewer])
    html = client.get(f"/games/{melded_table.pk}/").content.decode()
    placed = r'class="tile tile-\w+( draft-tile)? placed( last-turn)?"'
    assert len(re.findall(placed, html)) == 3  # R5 K9 B9
    red_5 = r'tile-red( draft-tile)? placed( last-turn)?"[^>]*aria-label="red 5 \(just played\)"'
    assert re.search(red_5, html)
    # The run and the new set changed, not K5 B5 Y5.
    assert len(re.findall(r'class="meld( draft-meld)? changed"', html)) == 2


# --- The socket -----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_socket_renders_each_seat_its_own_view_and_the_arranging_note(alice, bob):
    game = rummikub_game(
        alice,
        bob,
        racks=["R10 R11 R12 K2 B5", "Y1 Y2 Y9 B13 K13"],
        stock="K7 K8 K9 Y4 Y5 Y6",
    )
    alice_client = Client()
    alice_client.force_login(alice)

    cookies = {user.username: session_cookie(user) for user in (alice, bob)}
    # Two spectators, the second reading Romanian: the note is rendered per language.
    cookies["watcher"] = (b"cookie", b"django_language=en")
    cookies["privitor"] = (b"cookie", b"django_language=ro")

    async def scenario() -> dict[str, list[str]]:
        sockets = {name: socket(game, cookie, "?version=0") for name, cookie in cookies.items()}
        for ws in sockets.values():
            connected, _ = await ws.connect()
            assert connected
            assert await ws.receive_nothing(timeout=0.3)
        await database_sync_to_async(draft)(
            alice_client, game, version=0, table="R10 R11 R12", rack="K2 B5"
        )
        received = {
            name: [await sockets[name].receive_from(timeout=5)]
            for name in ("bob", "watcher", "privitor")
        }
        assert await sockets["alice"].receive_nothing(timeout=0.3)  # she has her answer
        await database_sync_to_async(act)(
            alice_client, game, version=0, verb="play", table="R10 R11 R12"
        )
        for name, ws in sockets.items():
            received.setdefault(name, []).append(await ws.receive_from(timeout=5))
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    note, bob_after = received["bob"]
    assert "alice is arranging the table" in note
    assert "R10" not in note and "data-tile" not in note
    assert received["watcher"][0] == note
    assert "alice aranjează masa" in received["privitor"][0]
    assert "R10" not in received["privitor"][0]
    (alice_after,) = received["alice"]
    assert sorted(rack_of(alice_after)) == ["B5", "K2"]
    assert sorted(rack_of(bob_after)) == sorted(["Y1", "Y2", "Y9", "B13", "K13"])
    for html in (alice_after, bob_after):
        assert 'id="game-table"' in html and 'id="game-arranging"' in html
        assert "alice is arranging" not in html  # the move ends the note
    shown = re.findall(r'data-tile="([^"]+)"', bob_after)
    assert "K2" not in shown and "B5" not in shown
