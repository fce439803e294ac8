"""Issue 30, fault 7: a player who melds quickly, before the running total of their first
melds has been counted, gets that count's answer after the meld.  It is put away quietly:
no error in the page, no number for a selection the meld has used up."""

from __future__ import annotations

import pytest
from playwright.sync_api import Route, expect

from games.engine.remi.scenario import position
from games.models import Game
from games.play import services
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.e2e.test_rummikub_dragging import soon
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)


# Two groups worth 60 toward the first melds (10 a high tile): enough for Remi's 50.
MELD = [["R10", "R11", "R12"], ["K11", "B11", "Y11"]]


def alice_to_meld(game_id: int) -> None:
    game = Game.objects.select_related("table").get(pk=game_id)
    engine = services.game_of(game.table)
    dealt = engine.load(game.state)
    state = position(
        racks=["R10 R11 R12 K11 B11 Y11 R2 Y4 B7 K9", "K1 K2 K3 B4"],
        rules=dealt.rules,
        wall="B8 B10 Y12",
        turn=0,
        phase="play",
        names=dealt.seats,
    )
    Game.objects.filter(pk=game_id).update(state=engine.dump(state), to_act=[0], phase="play")


def test_a_count_answered_after_a_quick_first_meld_is_put_away_quietly(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    off_the_browser_loop(alice_to_meld, game.pk)
    page = player(alice)
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/meld-total/" in r.url else None)
    held: list[Route] = []
    released: list[bool] = []

    def hold(route: Route) -> None:
        # The count of the whole selection waits until the meld is in; those of its first
        # tiles are answered (the page asks again for each selection, one at a time).
        if released or "Y11" not in route.request.url:
            route.continue_()
        else:
            held.append(route)

    page.route("**/meld-total/**", hold)
    page.goto(f"/games/{game.pk}/")
    wait_for_socket(page, 2)
    total = page.locator("#meld-total")
    expect(total).to_have_text("First melds: 0 / 50")

    for number, group in enumerate(MELD):
        if number:
            page.locator("#game-controls").get_by_role("button", name="New group").click()
        for code in group:
            page.locator(f'#game-rack .rack-tile[data-tile="{code}"]').click()
    # The count of the whole selection is asked for (and kept back) before the meld is sent.
    soon(page, lambda: held, "the count's request")
    page.locator("#game-controls").get_by_role("button", name="Meld", exact=True).click()
    expect_version(page, 1)
    expect(page.locator("#game-melds .meld")).to_have_count(2)

    # Now the counts asked for while composing are answered, after the meld.
    released.append(True)
    for route in held:
        route.continue_()
    soon(page, lambda: len(statuses) >= len(held), "the counts' answers")
    assert 404 not in statuses
    expect(total).to_be_hidden()
    expect(page.locator(".meld-total-sep")).to_be_hidden()
    expect(page.locator("#game-error")).to_be_empty()
    assert errors == []
