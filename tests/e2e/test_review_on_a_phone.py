"""A player opens the review of a game they just finished, on a 375 px phone: it shows its
progress until the worker's result is in, then the summary and their turns; from a flagged
turn they go to the replay, open "Show the best play" and step on by key, the toggle staying
open, even when the tap on it lands before its script has run."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.tables import lifecycle
from reviews import services as review_services
from reviews.models import GameReview
from tests.e2e.conftest import PHONE, page_width
from tests.games.playing import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_walks_the_review_of_their_game_on_a_phone(alice, player, asgi_site):
    table = lifecycle.create_arranged_table(alice, [alice, "hard"], game_type="remi")
    game = play_out(lifecycle.start_table(table, alice))
    # The worker has started on it (its own test runs a real one): the page shows progress.
    GameReview.objects.update_or_create(
        game=game, defaults={"status": GameReview.Status.RUNNING, "moves": 40, "walked": 10}
    )
    page = player(alice, **PHONE)
    page.goto(f"{asgi_site.url}/games/{game.pk}/review/")
    expect(page.locator("#review-progress")).to_have_attribute("value", "25")
    # The worker's result arrives; the page's next poll shows it without a reload.
    GameReview.objects.filter(game=game).update(status=GameReview.Status.PENDING)
    assert review_services.compute(game.pk)
    expect(page.get_by_role("heading", name="Summary")).to_be_visible()
    expect(page.locator("[data-seat-summary]")).to_have_count(2)
    assert page_width(page) <= 375

    data = GameReview.objects.get(game=game).data
    mine = [t for t in data["turns"] if t["seat"] == 0]
    expect(page.locator(".review-turn")).to_have_count(len(mine))
    turn = next((t for t in mine if t["best"]["placed"]), mine[0])
    step = turn["step"]
    item = page.locator(f'.review-turn[data-step="{step}"]')
    pieces = item.locator(".review-rack [data-piece]")
    expect(pieces).to_have_count(len(turn["position"]["rack"]))
    expect(item.locator('.review-rack [data-best="true"]')).to_have_count(
        len(turn["best"]["placed"])
    )

    # The toggle's script comes after it on the page, so a quick tap can land before the script
    # has run: hold the script back until the tap has landed, then let it load.
    held = []

    def hold_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/js/review.js*", hold_first)
    item.get_by_role("link", name=re.compile(rf"See move {step} in the replay")).tap()
    expect(page).to_have_url(re.compile(rf"/replay/\?step={step}$"))
    toggle = page.locator("[data-replay-best] summary")
    toggle.tap()
    expect(page.locator("[data-replay-best]")).to_have_attribute("open", "")
    assert len(held) == 1
    held[0].continue_()
    best = page.locator("#replay-best-body")
    expect(best.get_by_role("heading", name=re.compile("^Best play"))).to_be_visible()
    expect(best.locator(".review-rack [data-piece]")).to_have_count(len(turn["position"]["rack"]))
    assert page_width(page) <= 375

    # By key: the next move, the toggle still open; b shuts it.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_attribute("data-step", str(step + 1))
    expect(page.locator("[data-replay-best]")).to_have_attribute("open", "")
    expect(page.locator("#replay-best-body")).to_be_visible()
    page.keyboard.press("b")
    expect(page.locator("[data-replay-best]")).not_to_have_attribute("open", "")
