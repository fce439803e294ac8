"""Issue 28: the status line is one part alike for every viewer.

A socket sends every seat and every spectator the same status line after a move, holding the
sentences for one seat ("Your turn", "You are on vacation") beside those for everyone else;
each page keeps only its own, as a page the server draws has them.  For every game, two
players (the second on vacation) and a spectator, before and after moves made elsewhere."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User
from games.engine import GAMES
from games.models import Game
from tests.conftest import make_user
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.games.clock_helpers import correspondence_game
from tests.games.playing import play_random

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = 2  # after the page opens, each checked on every page


def start(key: str, players: list[User]) -> int:
    game = correspondence_game(players[0], *players[1:], game_type=key)
    while Game.objects.get(pk=game.pk).phase == "prelude":  # Remi's doublas: everyone acts
        play(game.pk)
    User.objects.filter(pk=players[1].pk).update(vacation_started_at=timezone.now())
    return game.pk


def play(game_id: int) -> tuple[int, int]:
    """A move of the first seat to act, as the server takes it: the version it makes and the
    seat to play after it."""
    after = play_random(game_id, seed=Game.objects.get(pk=game_id).version)
    return after.version, min(after.to_act)


def check_status(page: Page, me: int | None, turn: int, names: list[str], what: str) -> None:
    status = page.locator("#game-status")
    yours = status.locator(".your-turn")
    if me == turn:
        expect(yours, what).to_have_count(1)
        expect(yours, what).to_be_visible()
        expect(status, what).not_to_contain_text(f"{names[turn]}'s turn")
    else:
        expect(yours, what).to_have_count(0)
        expect(status.locator(".turn"), what).to_have_text(f"{names[turn]}'s turn")
    away = status.locator(".on-vacation")
    expect(away, what).to_have_count(1)
    expect(away, what).to_be_visible()
    if me == 1:
        expect(away, what).to_contain_text("You are on vacation")
    else:
        expect(away, what).to_contain_text(f"{names[1]} is on vacation")
    # Nothing of another viewer's sentences is left on the page, shown or hidden.
    expect(status.locator("[hidden]"), what).to_have_count(0)


@pytest.mark.parametrize("key", list(GAMES))
def test_each_page_keeps_its_own_sentences_of_the_status_line(site_context, asgi_site, key):
    users: list[Any] = off_the_browser_loop(lambda: [make_user(n) for n in ("ann", "ben")])
    watcher = off_the_browser_loop(make_user, "eve")
    game_id = off_the_browser_loop(start, key, users)
    names = [user.username for user in users]
    turn = off_the_browser_loop(lambda: min(Game.objects.get(pk=game_id).to_act))
    viewers = ((users[0], 0), (users[1], 1), (watcher, None))
    pages: list[Page] = []
    for viewer, me in viewers:
        context = site_context()
        context.add_cookies([session_cookie(viewer, asgi_site.url)])
        page = context.new_page()
        page.goto(f"/games/{game_id}/")
        wait_for_socket(page, 2)
        check_status(page, me, turn, names, f"{key}, seat {me}, as drawn")
        pages.append(page)
    for n in range(MOVES):
        version, turn = off_the_browser_loop(play, game_id)
        for page, (_, me) in zip(pages, viewers, strict=True):
            page.wait_for_selector(f'#game-status[data-version="{version}"]')
            check_status(page, me, turn, names, f"{key}, seat {me}, after move {n + 1}")
