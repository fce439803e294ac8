"""A visitor who is not logged in, on a 375 px touch screen: finds a game in the lobby's "live
now" list, watches it move live without a rack, and once it is over checks its deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import GAMES
from games.models import Game
from games.play import services
from tests.e2e.conftest import PHONE, off_the_browser_loop, page_width, wait_for_socket
from tests.games.test_deal_verification import play_out, start

pytestmark = pytest.mark.django_db(transaction=True)


def first_move(game: Game) -> None:
    engine = GAMES["remi"]
    state = engine.load(game.state)
    seat = min(engine.to_act(state))
    rack = game.state["racks"][seat].split()
    services.play(game.pk, seat, f"discard {rack[0]}", 0)


def test_a_visitor_watches_a_live_game_and_verifies_its_deal(visitor, asgi_site, alice, bob):
    game = off_the_browser_loop(start, alice, bob, "remi", options={"doubla": False})
    page = visitor(**PHONE)
    page.goto(f"{asgi_site.url}/lobby/")
    live = page.locator("#live-games")
    expect(live.get_by_role("link", name=f"Watch table {game.table_id}")).to_be_visible()
    live.get_by_role("link", name=f"Watch table {game.table_id}").tap()
    expect(page).to_have_url(f"{asgi_site.url}/games/{game.pk}/")
    expect(page.get_by_text("You are watching this game.")).to_be_visible()
    expect(page.locator("#game-rack")).to_be_hidden()
    expect(page.locator("#deal-commitment")).to_contain_text(game.deal_commitment)
    assert page_width(page) <= 375

    wait_for_socket(page)  # a visitor's page has the game's socket alone
    off_the_browser_loop(first_move, game)
    expect(page.locator(".version")).to_have_text("v1")  # the move arrived over the socket

    finished = off_the_browser_loop(play_out, Game.objects.get(pk=game.pk))
    seed = GAMES["remi"].ctx(GAMES["remi"].load(finished.state)).seed
    expect(page.locator(".deal-seed")).to_have_text(seed)  # revealed as the game ended
    page.get_by_role("button", name="Verify the deal").tap()
    expect(page.get_by_role("heading", name="The deal checks out.")).to_be_visible()
    assert page_width(page) <= 375

    # A wrong seed, typed in: it fails.
    page.get_by_label("Seed to check").fill(seed[::-1])
    page.get_by_label("Seed to check").press("Enter")
    expect(page.get_by_role("heading", name="The deal does not check out.")).to_be_visible()

    # The explanation, reached from the check, fits the screen too.
    page.get_by_role("link", name="How the check works").tap()
    expect(page.get_by_role("heading", name="A deal anyone can check")).to_be_visible()
    assert page_width(page) <= 375
