"""The same move posted at once from several browser tabs (real parallel HTTP requests to a
live server, each on its own connection) applies exactly once; the other tabs are told the
game moved on and get the current position."""

from __future__ import annotations

import threading
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest
from django.conf import settings
from django.test import Client

from games.models import Action, Game
from games.play.views import MOVED_ON

TABS = 5

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in_opener(user, base_url: str, game: Game):
    """An HTTP client holding ``user``'s session and a CSRF token, like one browser tab."""
    client = Client()
    client.force_login(user)
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    opener.addheaders = [("Cookie", f"{settings.SESSION_COOKIE_NAME}={session}")]
    with opener.open(f"{base_url}/games/{game.pk}/") as page:
        assert page.status == 200
    token = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={token}"
    opener.addheaders = [("Cookie", cookie), ("X-CSRFToken", token), ("HX-Request", "true")]
    return opener


def test_the_same_move_from_several_tabs_at_once_applies_once(live_server, alice, bob, started):
    seat = started.state["first_player"]
    player = (alice, bob)[seat]
    tile = started.state["racks"][seat].split()[0]
    tabs = [logged_in_opener(player, live_server.url, started) for _ in range(TABS)]
    body = urllib.parse.urlencode({"version": 0, "verb": "discard", "tiles": tile}).encode()
    barrier = threading.Barrier(TABS)
    answers: list[tuple[int, str]] = [(0, "")] * TABS

    def post(index: int) -> None:
        barrier.wait()
        with tabs[index].open(f"{live_server.url}/games/{started.pk}/act/", body) as response:
            answers[index] = (response.status, response.read().decode())

    threads = [threading.Thread(target=post, args=(i,)) for i in range(TABS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert all(status == 200 for status, _ in answers), answers
    moved_on = [html for _, html in answers if str(MOVED_ON) in html]
    assert len(moved_on) == TABS - 1
    game = Game.objects.get(pk=started.pk)
    assert game.version == 1
    assert game.state["discards"] == tile
    assert list(Action.objects.filter(game=game).values_list("version", flat=True)) == [1]
    # Every tab that lost the race was shown the position after the winning move.
    assert all('class="game-status" data-version="1"' in html for html in moved_on)
