"""Issue 30, "Motion": a move the player did not make is seen happening, and the last move
stays marked until the next.  For every game: alice's page is open while bob plays a turn
(through the service layer, as from his own device); each tile or card his turn brought to
her page fades and slides in, in under 300 ms, and what it brought to the table (his
discard, his melds) keeps its mark until alice moves; a spectator who asks for reduced
motion sees the same marks and no motion."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from games.engine import GAMES
from games.models import Game
from games.play import services
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.e2e.game_page import expect_version
from tests.e2e.test_phone_glance import LEVELS, under_way

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
# The newest discard, in each game's drawing of its discard row or pile.
NEWEST_DISCARD = (
    "#game-row .row-tiles > li:last-child > .row-tile,"
    " #game-piles .discard-spread > :last-child,"
    " #game-piles > .card-back ~ .card:not(.card-empty)"
)
MOTION = """() => Array.from(document.querySelectorAll(".arrived")).map((el) => {
  const style = getComputedStyle(el);
  return [style.animationName, style.animationDuration];
})"""


def play_turn(game_id: int, seat: int, rng: random.Random) -> int:
    """The bot plays ``seat``'s whole turn; the game's version after it."""
    for _ in range(200):
        game = Game.objects.select_related("table").get(pk=game_id)
        engine = GAMES[game.table.game_type]
        state = engine.load(game.state)
        if engine.is_over(state) or engine.to_act(state) != {seat}:
            return game.version
        action = engine.choose(engine.player_view(state, seat), LEVELS[seat], rng)
        services.play(game.pk, seat, str(action), game.version)
    pytest.fail(f"seat {seat}'s turn never ended")


def artefact(key: str) -> Path:
    folder = Path(os.environ.get("TEST_ARTIFACTS_DIR", "var/test-artifacts")) / "motion"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{key}-after-the-other-players-turn.png"


def seconds(duration: str) -> float:
    found = re.fullmatch(r"([\d.]+)(m?s)", duration)
    assert found, duration
    return float(found[1]) / (1000 if found[2] == "ms" else 1)


@pytest.mark.parametrize("key", list(GAMES))
def test_the_other_players_turn_is_seen_happening_and_stays_marked(
    site_context, asgi_site, alice, bob, carol, key
):
    game_id, discarding = off_the_browser_loop(under_way, key, alice, bob)
    rng = random.Random(3)
    off_the_browser_loop(play_turn, game_id, 0, rng)  # alice's turn: now bob's

    pages: dict[str, Page] = {}
    for who, user, motion in (("alice", alice, "no-preference"), ("carol", carol, "reduce")):
        context = site_context(**DESKTOP, reduced_motion=motion)
        context.add_cookies([session_cookie(user, asgi_site.url)])
        pages[who] = context.new_page()
        pages[who].goto(f"/games/{game_id}/")
        wait_for_socket(pages[who], 2)
    page = pages["alice"]
    assert page.locator(".last-move, .arrived").count() == 0, "marks before any move"

    # bob's turns until one brings something to the table (each game's bob discards or
    # melds in his first turn but Rummikub's, whose bob may only draw); alice's turns in
    # between clear the marks.
    for _ in range(6):
        version = off_the_browser_loop(play_turn, game_id, 1, rng)
        expect_version(page, version)
        expect_version(pages["carol"], version)
        if page.locator("#game .last-move").count():
            break
        version = off_the_browser_loop(play_turn, game_id, 0, rng)
        expect_version(page, version)
    marked = page.locator("#game .last-move")
    assert marked.count(), f"{key}: no turn of bob's brought anything to the table"

    # Seen happening: every new piece moved in, in under 300 ms.
    page.screenshot(path=artefact(key))
    motion = page.evaluate(MOTION)
    assert motion, f"{key}: nothing moved in"
    for name, duration in motion:
        assert name == "arrive", f"{key}: a new piece with the animation {name!r}"
        assert 0 < seconds(duration) < 0.3, f"{key}: a new piece moved in in {duration}"
    # Marked: the table's new pieces, not the watcher's own rack; the newest discard.
    assert page.locator("#game-rack .last-move").count() == 0, f"{key}: a mark in the rack"
    if discarding:
        expect(page.locator(NEWEST_DISCARD)).to_have_class(re.compile(r"\blast-move\b"))
    # With reduced motion: the same marks, no motion.
    spectator = pages["carol"]
    expect(spectator.locator("#game .last-move")).to_have_count(marked.count())
    still = spectator.evaluate(MOTION)
    assert still and all(name == "none" for name, _ in still), f"{key}: motion {still}"

    # The marks stay until the next move: alice's own, after which none of bob's is left.
    version = off_the_browser_loop(play_turn, game_id, 0, rng)
    expect_version(page, version)
    expect(page.locator("#game .last-move")).to_have_count(0)
