"""axe-core (Deque's accessibility rules, 4.12) finds nothing on the pages people use most: the
home page, the lobby, a tournament under way, the profile, and a game page of every game as a
seated player and as a spectator; on a 375 by 740 phone and a 1280 by 800 screen in English,
and on the phone in Romanian and Hungarian.  Violations of every impact count."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from playwright.sync_api import Page

from games.engine import GAMES
from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, session_cookie, wait_for_socket
from tests.tournaments.helpers import under_way

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
VIEWS = [("en", PHONE), ("en", DESKTOP), ("ro", PHONE), ("hu", PHONE)]
AXE = Axe()


def violations(page: Page) -> list[str]:
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in found
    ]


def check_everywhere(site_context, asgi_site, path: str, user: Any = None, live: int = 0):
    """axe on ``path`` in each language and size; ``live`` sockets open first (the page as
    people see it once it has settled)."""
    found = {}
    for language, device in VIEWS:
        context = site_context(**device)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_site.url}]
        if user is not None:
            cookies.append(session_cookie(user, asgi_site.url))
        context.add_cookies(cookies)
        page = context.new_page()
        page.goto(path)
        if live:
            wait_for_socket(page, live)
        assert page.locator("html").get_attribute("lang") == language
        if problems := violations(page):
            found[f"{language} {device['viewport']['width']}px"] = problems
        context.close()
    assert not found, f"axe on {path}: {found}"


@pytest.mark.parametrize("path", ["/", "/lobby/", "/rules/"])
def test_the_public_pages(site_context, asgi_site, path):
    check_everywhere(site_context, asgi_site, path)


def test_the_profile(site_context, asgi_site, alice):
    check_everywhere(site_context, asgi_site, "/profile/", alice)


def test_a_tournament_under_way(site_context, asgi_site, alice, bob, carol):
    pk = off_the_browser_loop(lambda: under_way(alice, bob, carol).pk)
    check_everywhere(site_context, asgi_site, f"/tournaments/{pk}/", alice)


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("who", ["player", "spectator"])
def test_a_game_page(site_context, asgi_site, alice, bob, carol, key, who):
    def started() -> int:
        table = lifecycle.create_table(alice, game_type=key, seat_count=2)
        lifecycle.join_table(table, bob)
        return lifecycle.start_table(table, alice).pk

    game_id = off_the_browser_loop(started)
    viewer = alice if who == "player" else carol
    check_everywhere(site_context, asgi_site, f"/games/{game_id}/", viewer, live=1)
