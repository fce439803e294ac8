"""Acceptance 5 of issue 12, in browsers: Alice registers for a tournament on its page,
finds her round-1 table in My games, plays it — she holds R11 R12 R13, lays them and goes
out — and Carol, watching the tournament's page, sees the standings change as the game
ends, without reloading.

The deal is replaced by a known position once the round is seated (as in
test_rummikub_full_table.py); Bob, the other player, never has to move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine.rummikub import GAME
from games.engine.rummikub.scenario import position
from games.models import Game
from tests.e2e.conftest import assert_not_reloaded, mark_page, off_the_browser_loop, wait_for_socket
from tests.tournaments.helpers import tournament
from tournaments import services
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ALICE = "R11 R12 R13"
BOB = "K1 Y3 B6 R2 K9"


def seat_round_one(event: Tournament, organiser, bob) -> Match:
    services.register(event, bob)
    services.close_registration(event, organiser)
    round_ = services.confirm_round(services.propose_round(event, organiser), organiser)
    return Match.objects.get(round=round_)


def known_deal(match: Match, alice) -> int:
    game = Game.objects.get(table=match.table)
    names = GAME.load(game.state).seats
    seat = match.players.index(alice.pk)
    racks = [ALICE if s == seat else BOB for s in range(2)]
    state = position(names=names, racks=racks, stock="Y1 Y2 B1 B2 K2 K3", turn=seat)
    Game.objects.filter(pk=game.pk).update(state=GAME.dump(state), to_act=[seat])
    return game.pk


def test_a_player_registers_plays_her_table_and_a_watcher_sees_the_standings_change(
    player, alice, bob, carol
):
    organiser = carol  # any account may organise; Carol also watches
    event = tournament(organiser, name="Friday cup", seat_count=2, rounds=1)
    services.open_registration(event, organiser)

    page = player(alice)
    page.goto(f"/tournaments/{event.pk}/")
    wait_for_socket(page)
    page.locator("#register-button").click()
    expect(page.locator("#tournament-live")).to_contain_text("You are registered.")
    expect(page.locator("#withdraw-button")).to_be_visible()

    match = off_the_browser_loop(seat_round_one, event, organiser, bob)
    game_id = off_the_browser_loop(known_deal, match, alice)

    watcher = player(carol)
    watcher.goto(f"/tournaments/{event.pk}/")
    wait_for_socket(watcher)
    mark_page(watcher)
    standings = watcher.locator("#standings tbody tr")
    expect(standings).to_have_count(2)
    expect(watcher.locator("#standings .match-points")).to_have_text(["0", "0"])
    expect(watcher.locator(".round-table")).to_have_attribute("data-status", "playing")

    page.goto("/games/mine/")
    entry = page.locator(f'.my-game[data-table-id="{match.table_id}"]')
    expect(entry).to_be_visible()
    entry.get_by_role("link", name="Play").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/$"))
    wait_for_socket(page)
    expect(page.locator("#game-status .your-turn")).to_be_visible()

    first, *rest = ALICE.split()
    page.locator(f'#game-rack .draft-tile[data-tile="{first}"]').click()
    page.get_by_role("button", name="New meld").click()
    meld = page.locator("#draft-melds .draft-meld").last
    for code in rest:
        page.locator(f'#game-rack .draft-tile[data-tile="{code}"]').click()
        meld.get_by_role("button", name="Put here").click()
        expect(page.locator(f'#draft-melds .draft-tile[data-tile="{code}"]')).to_be_visible()
    page.locator("#done-button").click()
    expect(page.locator("#game-result")).to_be_visible()

    # Carol's page follows without a reload: Alice first with a win's two points.
    expect(watcher.locator(".round-table")).to_have_attribute("data-status", "finished")
    expect(watcher.locator("#standings .match-points")).to_have_text(["2", "0"])
    expect(standings.first.locator("th")).to_have_text("Alice")
    expect(watcher.locator("#tournament-status")).to_have_text("Finished")
    assert_not_reloaded(watcher)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
