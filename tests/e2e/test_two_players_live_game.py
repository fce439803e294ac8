"""Issue 4, acceptance 1: two people play a live game in two browsers, a third watches.

Alice creates a two-seat table from the lobby form; Bob, already on the lobby, sees it appear
without reloading and sits down; Alice starts and both land on the game.  They play turns
through the page's buttons, shortcuts and notation box; refused moves show the engine's
message beside the controls and change nothing; every move shows up on the other pages over
the WebSocket.  Carol watches as a spectator: the same public moves, and no rack.

The deal is random (the series seed), so the test reads who opens from the page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Table
from tests.e2e.conftest import assert_not_reloaded, mark_page, wait_for_socket
from tests.e2e.game_page import (
    GAME_URL,
    button,
    discard,
    discard_row,
    draw,
    expect_error,
    expect_version,
    play_notation,
    rack,
    select_tile,
    socket_versions,
    version,
)

pytestmark = pytest.mark.django_db(transaction=True)


def create_two_seat_table(page: Page) -> int:
    """Alice's part: the lobby's Create table form, two seats, no doublas, no clock."""
    page.goto("/lobby/")
    page.locator("#create-table").click()
    expect(page.get_by_role("heading", name="New table")).to_be_visible()
    page.locator("#id_seat_count").select_option("2")
    page.locator("#id_bots").select_option("0")
    # Without doublas there is no "ready" round: play starts with the opening discard.
    page.get_by_text("More options").click()  # the rule options are folded there
    page.locator("#id_doubla").uncheck()
    page.locator("#id_move_seconds").select_option("0")
    page.locator("#create-table-submit").click()
    live = page.locator("#table-live")
    expect(live).to_have_attribute("data-status", "open")
    expect(live.get_by_role("status")).to_have_text(re.compile("Waiting for 1 more player"))
    return int(live.get_attribute("data-table-id") or "")


def test_two_players_play_live_and_a_spectator_follows(player, alice, bob, carol):
    alice_page, bob_page, carol_page = player(alice), player(bob), player(carol)

    # Bob waits in the lobby with its socket open.
    bob_page.goto("/lobby/")
    expect(bob_page.locator("#open-tables")).to_contain_text("No open tables right now.")
    wait_for_socket(bob_page)
    mark_page(bob_page)

    table_id = create_two_seat_table(alice_page)
    wait_for_socket(alice_page)

    # The new table appears in Bob's lobby by itself.
    card = bob_page.locator(f'#open-tables li.table-card[data-table-id="{table_id}"]')
    expect(card).to_be_visible()
    expect(card).to_contain_text("1 seat free")
    assert_not_reloaded(bob_page)
    card.get_by_role("button", name=f"Join table {table_id}").click()
    expect(bob_page).to_have_url(re.compile(rf"/tables/{table_id}/$"))
    expect(bob_page.locator("#table-live").get_by_role("status")).to_have_text(
        re.compile("Waiting for the owner to start the game")
    )
    wait_for_socket(bob_page)

    # Alice's table page learns that Bob sat down, and she starts.
    expect(alice_page.locator("#table-live").get_by_role("status")).to_have_text(
        re.compile("Every seat is taken")
    )
    start = alice_page.locator("#start-game")
    expect(start).to_be_enabled()
    start.click()

    # Both reach the game: Alice by her Start button, Bob by the table page's live update.
    expect(alice_page).to_have_url(GAME_URL)
    expect(bob_page).to_have_url(alice_page.url)
    game = Game.objects.get(table_id=table_id)
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
    assert alice_page.url.endswith(f"/games/{game.pk}/")

    # Carol opens the same game as a spectator.
    carol_page.goto(f"/games/{game.pk}/")
    pages = [alice_page, bob_page, carol_page]
    for page in pages:
        expect_version(page, 0)
        expect(page.locator("#game-status .phase")).to_have_text("Opening discard")
        wait_for_socket(page)
        mark_page(page)
    expect(carol_page.locator("#game-controls")).to_contain_text("You are watching this game.")
    expect(carol_page.locator("#game-rack")).to_be_hidden()
    expect(carol_page.locator("#game-rack .rack-tile")).to_have_count(0)
    expect(carol_page.locator("#action-form")).to_have_count(0)

    # Whoever the deal made first player opens; the page says so.
    names = {alice_page: alice.public_name, bob_page: bob.public_name}
    alice_opens = alice_page.locator("#game-status .your-turn").count() == 1
    first, second = (alice_page, bob_page) if alice_opens else (bob_page, alice_page)
    expect(first.locator("#game-status .your-turn")).to_have_text("Your turn")
    expect(second.locator("#game-status .turn")).to_have_text(f"{names[first]}'s turn")
    expect(first.locator("#game-rack .rack-tile")).to_have_count(15)
    expect(second.locator("#game-rack .rack-tile")).to_have_count(14)
    # Not your turn: the buttons are off, and typing a move anyway gets the engine's answer.
    expect(button(second, "Draw")).to_be_disabled()
    play_notation(second, "draw")
    expect_error(second, f"It is {names[first]}'s turn.")

    # v0 -> v1: the opening discard, seen on every page.
    opened = discard(first)
    row = [opened]
    for page in pages:
        expect_version(page, 1)
        expect(page.locator("#game-row .row-tile")).to_have_count(1)
        assert discard_row(page) == row
    expect(first.locator("#game-log")).to_contain_text(f"You opened the discard row with {opened}.")
    for page in (second, carol_page):
        expect(page.locator("#game-log")).to_contain_text(
            f"{names[first]} opened the discard row with {opened}."
        )
    expect(second.locator("#game-status .your-turn")).to_have_text("Your turn")
    expect(first.locator("#game-rack .rack-tile")).to_have_count(14)

    # v1 -> v2: the second player draws; only they learn the tile.
    expect(button(second, "Discard")).to_be_disabled()
    draw(second)
    expect(second.locator("#game-rack .rack-tile")).to_have_count(15)
    expect(second.locator("#game-log")).to_contain_text(re.compile(r"You drew (J|[RYBK]\d+)\."))
    for page in (first, carol_page):
        expect_version(page, 2)
        expect(page.locator("#game-log")).to_contain_text(f"{names[second]} drew a tile.")
        expect(page.locator("#game-players .player-tiles", has_text="15 tiles")).to_have_count(1)

    # Refused moves: a one-tile meld, and drawing twice.  The engine's message appears beside
    # the controls; the position, the rack and the other pages stay as they were.
    tiles_before = rack(second)
    select_tile(second, tiles_before[0])
    button(second, "Meld").click()
    expect_error(second, "A meld needs at least three tiles.")
    button(second, "Clear").click()
    expect(second.locator("#game-selection")).to_have_text("nothing")
    play_notation(second, "draw")
    expect_error(second, "You have already drawn this turn: meld, add, or discard.")
    for page in pages:
        expect_version(page, 2)
    assert rack(second) == tiles_before
    assert discard_row(first) == row

    # v2 -> v3: the second player discards; the error goes away with the move.
    row.append(discard(second, tiles_before[-1]))
    expect(second.locator("#game-error")).to_have_text("")
    for page in pages:
        expect_version(page, 3)
        expect(page.locator("#game-row .row-tile")).to_have_count(2)
        assert discard_row(page) == row
    for page in (first, carol_page):
        expect(page.locator("#game-log")).to_contain_text(f"{names[second]} discarded {row[-1]}.")

    # v3 -> v5: the first player's turn with the keyboard shortcuts (d draws, x discards).
    expect(first.locator("#game-status .your-turn")).to_have_text("Your turn")
    first.locator("#game-rack .rack-tile").first.focus()
    first.keyboard.press("d")
    expect_version(first, 4)
    tile = rack(first)[-1]
    select_tile(first, tile)
    first.keyboard.press("x")
    expect_version(first, 5)
    row.append(tile)
    for page in pages:
        expect_version(page, 5)
        assert discard_row(page) == row
    expect(second.locator("#game-log")).to_contain_text(f"{names[first]} discarded {tile}.")

    # v5 -> v7: one more turn by the second player, with the buttons.
    draw(second)
    row.append(discard(second))
    for page in pages:
        expect_version(page, 7)
        assert discard_row(page) == row
        expect(page.locator("#game-row .wall-count")).to_have_text(
            second.locator("#game-row .wall-count").inner_text()
        )
    expect(carol_page.locator("#game-log")).to_contain_text(f"{names[second]} discarded {row[-1]}.")
    expect(first.locator("#game-status .your-turn")).to_have_text("Your turn")

    # Every update came over the sockets: no page was ever reloaded, and the spectator never
    # received a rack.
    for page in pages:
        assert_not_reloaded(page)
        assert page.evaluate("window.remiMessages") >= 3
    # A player's own moves (first: v1, v4, v5; second: v2, v3, v6, v7) reached their page once,
    # in the answer to the move; its socket brought only the other's, none twice.  (Two quick
    # moves may come as one: the socket sends the newest position.)
    for page, own, last_other in ((first, {1, 4, 5}, 7), (second, {2, 3, 6, 7}, 5)):
        delivered = socket_versions(page)
        assert not own & set(delivered), f"own moves sent again over the socket: {delivered}"
        assert delivered == sorted(set(delivered)) and delivered[-1] == last_other, delivered
    watched = socket_versions(carol_page)
    assert watched == sorted(set(watched)) and watched[-1] == 7, watched
    expect(carol_page.locator("#game-rack .rack-tile")).to_have_count(0)
    game.refresh_from_db()
    assert game.version == version(carol_page) == 7
    assert " ".join(row) == game.state["discards"]
