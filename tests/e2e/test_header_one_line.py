"""Issue 30's player walk: on a 1280 by 800 screen the header wrapped to two lines (the
language buttons under the menu), and Romanian and Hungarian words are longer still. On the
lobby, a game page, a tournament under way and the profile, in English, Romanian and
Hungarian, logged in with a game waiting (the badge shown), the header is one line: every
item of it stands in the same row, and the header is no taller than that row."""

from __future__ import annotations

import pytest
from django.conf import settings

from games.tables import lifecycle
from tests.e2e.conftest import off_the_browser_loop, session_cookie
from tests.tournaments.helpers import under_way

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LANGUAGES = ["en", "ro", "hu"]

# The header's height and each of its visible items' boxes (the brand, the badge, every menu
# entry, every language button).
BOXES = """() => {
  const header = document.querySelector(".site-header").getBoundingClientRect();
  const items = document.querySelectorAll(
    ".site-nav > .brand, .nav-badge > li, #site-menu > li, .language-switcher button");
  return {
    height: header.height,
    items: Array.from(items).filter((el) => el.getClientRects().length)
      .map((el) => { const r = el.getBoundingClientRect();
                     return [el.textContent.trim(), r.top, r.bottom]; }),
  };
}"""


def test_the_header_is_one_line_at_1280_px(site_context, asgi_site, alice, bob, carol):
    def world() -> dict[str, str]:
        table = lifecycle.create_table(alice, game_type="remi", seat_count=2)
        lifecycle.join_table(table, bob)
        game = lifecycle.start_table(table, alice)
        tournament = under_way(alice, bob, carol)
        return {
            "lobby": "/lobby/",
            "game": f"/games/{game.pk}/",
            "tournament": f"/tournaments/{tournament.pk}/",
            "profile": "/profile/",
        }

    pages = off_the_browser_loop(world)
    wrapped = {}
    for language in LANGUAGES:
        context = site_context(**DESKTOP)
        context.add_cookies(
            [
                {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_site.url},
                session_cookie(alice, asgi_site.url),
            ]
        )
        page = context.new_page()
        for name, path in pages.items():
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == language
            found = page.evaluate(BOXES)
            items = found["items"]
            assert len(items) >= 10, f"{name}: header items {items}"
            row_top = min(top for _, top, _ in items)
            row_bottom = max(bottom for _, _, bottom in items)
            tallest = max(bottom - top for _, top, bottom in items)
            # One row: every item's box overlaps the tallest one's band, and the header holds
            # that row and its padding, not a second one.
            if row_bottom - row_top > tallest + 2 or found["height"] > tallest + 40:
                wrapped[f"{language} {name}"] = found
        context.close()
    assert not wrapped, f"the header wraps: {wrapped}"
