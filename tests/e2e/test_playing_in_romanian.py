"""Issue 16, acceptance 1: a player switches the site to Romanian on the home page and plays a
few moves of a Remi game in Romanian (buttons, the log, a refusal, the turn in the tab's
title), while the other player at the same table sees the same moves in English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine.remi.scenario import position
from games.engine.remi.state import DRAW
from games.models import Game
from games.play import services
from tests.e2e.conftest import off_the_browser_loop, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.games.conftest import two_player_game

pytestmark = pytest.mark.django_db(transaction=True)

ALICE_RACK = "R1 R2 R3 Y9 Y11 B4 B8 K2 K6 K11 Y1 B13 R12 K13"
BOB_RACK = "R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 B1 B3 B5 K3 K4"


def alice_to_draw(game_id: int) -> None:
    game = Game.objects.select_related("table").get(pk=game_id)
    engine = services.game_of(game.table)
    dealt = engine.load(game.state)
    state = position(
        racks=[ALICE_RACK, BOB_RACK],
        rules=dealt.rules,
        wall="B6 Y12 K9",
        phase=DRAW,
        turn=0,
        names=dealt.seats,
    )
    Game.objects.filter(pk=game_id).update(state=engine.dump(state), to_act=[0], phase=DRAW)


def controls(page: Page):
    return page.locator("#game-controls")


def test_a_game_in_romanian_beside_a_player_in_english(player, alice, bob):
    game = off_the_browser_loop(two_player_game, alice, bob)
    off_the_browser_loop(alice_to_draw, game.pk)

    # Alice chooses Romanian on the home page (it is saved on her profile).
    ana = player(alice)
    ana.goto("/")
    ana.get_by_role("form", name="Language").get_by_role("button", name="Română").click()
    expect(ana.locator("html")).to_have_attribute("lang", "ro")
    ana.goto(f"/games/{game.pk}/")
    wait_for_socket(ana, 2)
    ben = player(bob)  # Bob's browser asks for nothing: English
    ben.goto(f"/games/{game.pk}/")
    wait_for_socket(ben, 2)

    expect(ana.locator("#game-status .your-turn")).to_have_text("E rândul tău")
    expect(ana).to_have_title(re.compile(r"^\(1\) E rândul tău"))
    expect(ana.get_by_role("heading", name="Rândul pieselor aruncate")).to_be_visible()
    expect(ben.get_by_role("heading", name="Discard row")).to_be_visible()
    expect(ben.locator("#game-status")).to_contain_text(re.compile("alice's turn", re.I))

    # Draw, with the Romanian button; the log says it in Romanian to her, in English to him.
    controls(ana).get_by_role("button", name="Trage", exact=True).click()
    expect_version(ana, 1)
    expect(ana.locator("#game-log")).to_contain_text("Ai tras B6.")
    expect_version(ben, 1)
    expect(ben.locator("#game-log")).to_contain_text(re.compile("alice drew a tile\\.", re.I))

    # A move the rules refuse, typed: the refusal is in Romanian and nothing changed.
    ana.locator("#game-controls summary").click()
    ana.locator("#notation-input").fill("meld R1 R2")
    ana.locator("#notation-input").press("Enter")
    expect(ana.locator("#game-error")).to_contain_text("cel puțin trei piese")
    expect_version(ana, 1)

    # Discard: the turn passes, each told in their own language.
    ana.locator('#game-rack .rack-tile[data-tile="K13"]').click()
    controls(ana).get_by_role("button", name="Aruncă", exact=True).click()
    expect_version(ana, 2)
    expect(ana.locator("#game-log")).to_contain_text("Ai aruncat K13.")
    expect(ana.locator("#game-status")).to_contain_text(re.compile("E rândul lui bob", re.I))
    expect_version(ben, 2)
    expect(ben.locator("#game-log")).to_contain_text(re.compile("alice discarded K13\\.", re.I))
    expect(ben.locator("#game-status .your-turn")).to_have_text("Your turn")
    expect(ben).to_have_title(re.compile(r"^\(1\) Your turn"))
    alice.refresh_from_db()
    assert alice.preferred_language == "ro"
