"""Issue 30, "Make it a table": the seats are placed around the table, as the viewer sits.

For every game, with 2 and with 4 players, on a 1280 x 800 desktop and a 375 x 740 phone: the
viewer's own seat is under the table (a spectator sits in the first seat's chair); with two
players the other sits across, above the table's middle; with four, the next seat in play is
to the viewer's left, the one after across, the last to the right — beside the table on the
desktop, in one line above it on the phone (left, across, right in that order).  Each seat
shows its name, its rack or hand size and, on the seat to play, the turn mark.  The chips a
socket sends after a move are alike for every viewer (issue 28): the page places them and marks
its own seat ("you") again, so they sit as before.  Screenshots go to
``var/test-artifacts/seats/``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from games.engine import GAMES
from tests.conftest import make_user
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.games.clock_helpers import correspondence_game
from tests.games.playing import play_random

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True},
}
# The table's box (every felt part of the board together) and each seat's, by its seat.
BOXES = r"""() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY};
  };
  const felt = Array.from(
    document.querySelectorAll(".game-board > section:not(#game-players)"), box);
  const seats = {};
  for (const el of document.querySelectorAll("#game-players .player")) {
    seats[el.dataset.seat] = {...box(el), text: el.innerText.replace(/\s+/g, " ").trim(),
      turn: el.querySelector(".turn-mark") !== null, you: el.classList.contains("is-you")};
  }
  const most = (f, side) => f(...felt.map((b) => b[side]));
  return {
    table: {left: most(Math.min, "left"), right: most(Math.max, "right"),
            top: most(Math.min, "top"), bottom: most(Math.max, "bottom")},
    seats,
  };
}"""


def middle(box: dict[str, Any]) -> float:
    return (box["left"] + box["right"]) / 2


def check_around(
    boxes: dict[str, Any], me: int, players: int, screen: str, what: str, spectator: bool
) -> None:
    table, seats = boxes["table"], boxes["seats"]
    assert len(seats) == players, what
    mine = seats[str(me)]
    assert mine["top"] >= table["bottom"], f"{what}: the viewer's seat is not under the table"
    for seat, shown in seats.items():
        marked = seat == str(me) and not spectator
        assert shown["you"] == marked, f"{what}: seat {seat} marked as the viewer's: {shown}"
        assert ("(you)" in shown["text"]) == marked, f"{what}: seat {seat} reads {shown['text']}"
    for seat in seats.values():
        assert "tile" in seat["text"] or "card" in seat["text"], f"{what}: no count in {seat}"
    assert sum(seat["turn"] for seat in seats.values()) == 1, f"{what}: one seat to play"
    after = [seats[str((me + step) % players)] for step in range(1, players)]
    if players == 2:
        (across,) = after
        assert across["bottom"] <= table["top"], f"{what}: the other seat is not above the table"
        assert across["left"] < middle(table) < across["right"], f"{what}: not across"
        return
    left, across, right = after
    assert across["bottom"] <= table["top"], f"{what}: the seat across is not above the table"
    assert left["right"] <= middle(across) <= right["left"], f"{what}: not left, across, right"
    if screen == "desktop":
        assert left["right"] <= table["left"] and right["left"] >= table["right"], (
            f"{what}: the seats left and right are not beside the table"
        )
        assert across["left"] < middle(table) < across["right"], f"{what}: not across"
        for side in (left, right):
            assert side["top"] < table["bottom"] and side["bottom"] > table["top"], what
    else:
        for side in (left, right):
            assert side["bottom"] <= table["top"], f"{what}: a seat is not above the table"


def artefact(name: str) -> Path:
    folder = Path(os.environ.get("TEST_ARTIFACTS_DIR", "var/test-artifacts")) / "seats"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.png"


def start(key: str, players: list[Any]) -> int:
    return correspondence_game(players[0], *players[1:], game_type=key).pk


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("count", [2, 4])
@pytest.mark.parametrize("key", list(GAMES))
def test_the_seats_sit_around_the_table(site_context, asgi_site, key, count, screen):
    users = off_the_browser_loop(
        lambda: [make_user(name) for name in ("ann", "ben", "cat", "dan")[:count]]
    )
    watcher = off_the_browser_loop(make_user, "eve")
    game_id = off_the_browser_loop(start, key, users)
    # A player in the second seat, and a spectator (the first seat's chair).
    viewers = ((users[1], 1, "player"), (watcher, 0, "spectator"))
    pages: list[Page] = []
    for viewer, me, who in viewers:
        context = site_context(**SCREENS[screen])
        context.add_cookies([session_cookie(viewer, asgi_site.url)])
        page: Page = context.new_page()
        page.goto(f"/games/{game_id}/")
        wait_for_socket(page, 2)
        page.screenshot(path=artefact(f"{key}-{count}-{screen}-{who}"))
        what = f"{key} {count} {screen} {who}"
        check_around(page.evaluate(BOXES), me, count, screen, what, who == "spectator")
        pages.append(page)
    # After a move, the chips each socket is sent are the same bytes; each page seats them.
    version = off_the_browser_loop(lambda: play_random(game_id, seed=game_id).version)
    for page, (_, me, who) in zip(pages, viewers, strict=True):
        page.wait_for_selector(f'#game-status[data-version="{version}"]')
        what = f"{key} {count} {screen} {who}, after a move"
        check_around(page.evaluate(BOXES), me, count, screen, what, who == "spectator")
