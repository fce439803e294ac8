"""Issue 30, fault 2: on a 375 by 740 phone the docked rack hid the table.  At the start of a
turn, in a game under way (melds on the table, a discard row or pile some tiles long), the
first screen shows, with nothing scrolled and nothing covered by the dock: whose turn it is,
the clock, the top of the discard row or pile, the stock (and Remi's exposed tile), the whole
rack in two rows at most, and the move buttons in the lower half of the screen where a thumb
reaches.  For every game of the registry, a seated player and a spectator, in English,
Romanian and Hungarian.  Screenshots go to ``var/test-artifacts/phone-glance/``."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from games.engine import GAMES
from games.models import Game
from games.play import services
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.games.clock_helpers import correspondence_game

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH, HEIGHT = 375, 740
PHONE = {"viewport": {"width": WIDTH, "height": HEIGHT}, "has_touch": True, "is_mobile": True}
LANGUAGES = ["en", "ro", "hu"]

# Where each thing is drawn, on any game's page (a selector list covers the four templates).
GLANCE = {
    "turn": "#game-status .turn",
    "clock": "#game-status .deadline time[data-deadline]",
    "pile top": (
        "#game-row .row-tiles > li:last-child > .row-tile,"
        " #game-piles .discard-spread > :last-child,"
        " #game-piles > .card-back ~ .card:not(.card-empty)"
    ),
    "stock": (
        "#game-row .wall-count, #game-row .exposed, #game-status .stock-count,"
        " #game-piles > .card-back"
    ),
}
RACK = "#game-rack .rack-tile, #game-rack .hand-card"
MOVES = "#game-controls .action-buttons button:not(:disabled)"

# A game under way: this many melds on the table, discards in the row or pile (for a game
# that has one), and a rack still two thirds full at least (of the hand dealt), which two
# rows hold.
MELDS, DISCARDS, MOST_IN_RACK = 2, 4, 14
# alice (the hard bot) holds her melds back to go out in one go; bob (the easy one) lays his
# down at once, so the table fills while alice's rack stays full.
LEVELS = ("hard", "easy")


def shown(view: dict[str, Any]) -> tuple[int, int | None, int]:
    """Melds on the table, tiles or cards discarded (None: the game discards nothing) and the
    rack's size, read from a seat's view of any game."""
    melds = view.get("melds", view.get("table")) or []
    row = view.get("discards", view.get("discard"))
    discards = len(row) if isinstance(row, list) else view.get("discard_count")
    return len(melds), discards, len(view.get("rack", view.get("hand")) or [])


def under_way(key: str, alice, bob) -> tuple[int, bool]:
    """A correspondence game (a day a move, so a clock runs and never fires) played through
    the service layer, alice (seat 0) by the easy bot, bob by the hard one, until it is
    alice's turn to draw with melds on the table, a discard row or pile and a good part of
    her hand still to play.  Deals are tried in a fixed order until one gets there.  Returns
    the game's id and whether the game has a discard row or pile at all."""
    for attempt in range(8):
        seed = f"glance/{key}/{attempt}"
        with mock.patch.object(lifecycle, "new_series_seed", return_value=seed):
            game = correspondence_game(alice, bob, game_type=key)
        if (found := played_to_a_turn(game, random.Random(attempt))) is not None:
            return found
        # A deal that never got there must not count against alice's limit of open tables.
        game.table.delete()
    pytest.fail(f"{key}: no deal came to a turn of alice's with melds and discards")


def played_to_a_turn(game: Game, rng: random.Random) -> tuple[int, bool] | None:
    engine = GAMES[game.table.game_type]
    dealt = None
    for _ in range(2000):  # far more moves than any game of the four takes
        game = Game.objects.select_related("table").get(pk=game.pk)
        state = engine.load(game.state)
        if engine.is_over(state):
            return None
        acting = engine.to_act(state)
        melds, discards, rack = shown(engine.player_view(state, 0))
        dealt = dealt or rack
        if (
            acting == {0}
            and "draw" in engine.legal(state, 0)
            and melds >= MELDS
            and (discards is None or discards >= DISCARDS)
            and 3 * rack >= 2 * dealt
            and rack <= MOST_IN_RACK
        ):
            return game.pk, discards is not None
        seat = min(acting)
        action = engine.choose(engine.player_view(state, seat), LEVELS[seat], rng)
        services.play(game.pk, seat, str(action), game.version)
    return None


def artefact(name: str) -> Path:
    folder = Path(os.environ.get("TEST_ARTIFACTS_DIR", "var/test-artifacts")) / "phone-glance"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


# Every box the test is about, read in one go with what the eye sees at its middle: the
# element itself (or something inside it) unless the dock or another part covers it.
MEASURE = """([selectors, rack, moves]) => {
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const top = document.elementFromPoint(x, y);
    return {
      left: r.left, top: r.top, right: r.right, bottom: r.bottom,
      uncovered: top !== null && (el === top || el.contains(top)),
      text: el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40),
    };
  };
  const all = (selector) => Array.from(document.querySelectorAll(selector))
    .filter((el) => el.getClientRects().length > 0).map(seen);
  const found = {};
  for (const [name, selector] of Object.entries(selectors)) found[name] = all(selector);
  return {
    found, rack: all(rack), moves: all(moves),
    scrolled: [window.scrollX, window.scrollY],
    width: document.documentElement.scrollWidth,
  };
}"""


def on_screen(box: dict[str, Any]) -> bool:
    return (
        box["left"] >= 0
        and box["top"] >= 0
        and box["right"] <= WIDTH
        and box["bottom"] <= HEIGHT
        and box["uncovered"]
    )


def rows(boxes: list[dict[str, Any]]) -> int:
    return len({round(box["top"]) for box in boxes})


def open_at_its_turn(context, asgi_site, game_id: int, viewer, language: str, who: str) -> Page:
    """The game's page for ``viewer`` in ``language``, settled: its sockets open, every answer
    in, and the turn shown (the player's own, or the spectator's note)."""
    context.add_cookies(
        [
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_site.url},
            session_cookie(viewer, asgi_site.url),
        ]
    )
    page: Page = context.new_page()
    page.goto(f"/games/{game_id}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    wait_for_socket(page, 2)  # the game's socket and the badge's
    page.wait_for_load_state("networkidle")  # the hint slot's answer is in, fonts are drawn
    if who == "player":
        expect(page.locator("#game-status .your-turn")).to_be_visible()
    else:
        expect(page.locator("#game-controls .controls-note")).to_be_attached()
    return page


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("who", ["player", "spectator"])
@pytest.mark.parametrize("key", list(GAMES))
def test_the_start_of_a_turn_on_one_phone_screen(
    site_context, asgi_site, alice, bob, carol, key, who, language
):
    game_id, discarding = off_the_browser_loop(under_way, key, alice, bob)
    viewer = alice if who == "player" else carol

    page = open_at_its_turn(site_context(**PHONE), asgi_site, game_id, viewer, language, who)
    seen = page.evaluate(MEASURE, [GLANCE, RACK, MOVES])
    page.screenshot(path=artefact(f"{key}-{who}-{language}"))
    where = f"{key}, {who}, {language}"
    assert seen["scrolled"] == [0, 0], f"{where}: the page scrolled to {seen['scrolled']}"
    assert seen["width"] <= WIDTH, f"{where}: the page is {seen['width']} px wide"
    for name, boxes in seen["found"].items():
        if name == "pile top" and not discarding:  # Rummikub
            assert not boxes, f"{where}: a discard pile in a game without one"
            continue
        assert boxes, f"{where}: no {name} on the page"
        for box in boxes:
            assert on_screen(box), f"{where}: the {name} is not in sight: {box}"

    if who == "spectator":
        assert not seen["rack"] and not seen["moves"], f"{where}: a spectator has a rack"
        return
    assert seen["rack"], f"{where}: no rack"
    hidden = [box["text"] for box in seen["rack"] if not on_screen(box)]
    assert not hidden, f"{where}: rack tiles out of sight: {hidden}"
    assert rows(seen["rack"]) <= 2, f"{where}: the rack takes {rows(seen['rack'])} rows"
    assert seen["moves"], f"{where}: no move button"
    for box in seen["moves"]:
        assert on_screen(box), f"{where}: the {box['text']!r} button is not in sight: {box}"
        assert box["top"] >= HEIGHT / 2, f"{where}: {box['text']!r} is out of a thumb's reach"


# --- Issue 30, acceptance 3: each game on a desktop too, and right after a meld ---------------

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
TABLE_MELDS = ".game-melds .meld:not(.draft-meld)"


def after_a_meld(key: str, alice, bob) -> tuple[int, int]:
    """A game under way (as :func:`under_way` finds it) played on until a seat has just laid
    a new meld; its id and the melds then on the table."""
    game_id, _ = under_way(key, alice, bob)
    engine = GAMES[key]
    rng = random.Random(7)
    for _ in range(2000):
        game = Game.objects.select_related("table").get(pk=game_id)
        state = engine.load(game.state)
        if engine.is_over(state):
            break
        seat = min(engine.to_act(state))
        view = engine.player_view(state, seat)
        melds = shown(view)[0]
        action = engine.choose(view, LEVELS[seat], rng)
        services.play(game.pk, seat, str(action), game.version)
        after = engine.load(Game.objects.get(pk=game_id).state)
        laid = shown(engine.player_view(after, 0))[0]
        if laid > melds and not engine.is_over(after):
            return game_id, laid
    pytest.fail(f"{key}: no new meld was laid")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_turn_and_a_fresh_meld_on_a_phone_and_a_desktop(site_context, asgi_site, alice, bob, key):
    """The start of alice's turn and the table just after a meld, at 375 x 740 and 1280 x
    800, saved for a person to look at; each shows the whole width and every meld laid."""
    start, _ = off_the_browser_loop(under_way, key, alice, bob)
    melded, laid = off_the_browser_loop(after_a_meld, key, alice, bob)
    for moment, game_id in (("turn", start), ("after-meld", melded)):
        for size, device in (("phone", PHONE), ("desktop", DESKTOP)):
            context = site_context(**device)
            context.add_cookies([session_cookie(alice, asgi_site.url)])
            page = context.new_page()
            page.goto(f"/games/{game_id}/")
            wait_for_socket(page)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=artefact(f"{key}-{moment}-{size}"))
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= device["viewport"]["width"], f"{key} {moment} {size}: {width} px wide"
            if moment == "after-meld":
                expect(page.locator(TABLE_MELDS)).to_have_count(laid)
            context.close()
