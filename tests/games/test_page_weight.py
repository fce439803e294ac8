"""The game page stays light on a phone: its HTML with every stylesheet and script it loads,
each compressed as a server would send it, weighs under 60 KB — for every game, for a
player and for a spectator, and at the end of a game (result and revealed seed)."""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from games.engine import GAMES
from tests.games.test_deal_verification import play_out, start

BUDGET = 60 * 1024


def weight(html: str) -> dict[str, int]:
    """Compressed bytes of the page and of each static file it loads."""
    sizes = {"html": len(gzip.compress(html.encode(), 9))}
    for url in re.findall(r'<(?:link rel="stylesheet"|script) (?:href|src)="([^"]+)"', html):
        path = finders.find(url.removeprefix("/static/"))
        assert path, f"{url} is not a static file"
        with open(path, "rb") as file:
            sizes[url] = len(gzip.compress(file.read(), 9))
    return sizes


@pytest.mark.parametrize("key", list(GAMES))
def test_the_game_page_weighs_under_60_kb_compressed(alice, bob, carol, key):
    game = start(alice, bob, key)
    player, watcher = Client(), Client()
    player.force_login(alice)
    watcher.force_login(carol)
    pages = {
        "player": player.get(f"/games/{game.pk}/").content.decode(),
        "spectator": watcher.get(f"/games/{game.pk}/").content.decode(),
    }
    finished = play_out(game)
    pages["result"] = player.get(f"/games/{finished.pk}/").content.decode()
    for who, html in pages.items():
        sizes = weight(html)
        total = sum(sizes.values())
        print(f"{key} {who}: {total / 1024:.1f} KB compressed {sizes}")
        assert total < BUDGET, f"{key} ({who}) weighs {total} bytes: {sizes}"
