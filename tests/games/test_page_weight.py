"""The game page stays light on a phone: its HTML with every stylesheet and script it loads,
each compressed as the production server sends it, weighs under 60 KB — for every game, for
a player and for a spectator, and at the end of a game (result and revealed seed).

The page is measured as the site sends it to a browser that accepts gzip (the site compresses
pages itself: remi_site/compression.py). The static files are measured as production serves
them: `collectstatic` with the production
storage (our CSS and JS minified, then hashed and gzipped by WhiteNoise; remi_site/
static_storage.py) writes them to a temporary root, and each file's size is that of the gzip
copy WhiteNoise keeps beside it. Gzip, not the smaller Brotli copy: every browser accepts
gzip, and Brotli is sent only over HTTPS."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from games.engine import GAMES
from remi_site.static_storage import MinifiedManifestStaticFilesStorage
from tests.games.test_deal_verification import play_out, start

BUDGET = 60 * 1024
PRODUCTION_STORAGE = "remi_site.static_storage.MinifiedManifestStaticFilesStorage"


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[MinifiedManifestStaticFilesStorage]:
    """The static files as `collectstatic` leaves them for production (the tests' pages are
    rendered under the same storage, so they name the hashed files a player fetches)."""
    root = tmp_path_factory.mktemp("static")
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": PRODUCTION_STORAGE},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield MinifiedManifestStaticFilesStorage(location=root)


def weight(sent: bytes, served: MinifiedManifestStaticFilesStorage) -> dict[str, int]:
    """Compressed bytes of the page as the server sent it and of each static file it loads."""
    sizes = {"html": len(sent)}
    html = gzip.decompress(sent).decode()
    for url in re.findall(r'<(?:link rel="stylesheet"|script) (?:href|src)="([^"]+)"', html):
        # The page is rendered under the production storage, so its URLs are the hashed names.
        compressed = Path(served.path(url.removeprefix("/static/") + ".gz"))
        assert compressed.is_file(), f"{url} has no gzip copy among the collected files"
        sizes[url] = compressed.stat().st_size
    return sizes


def test_our_styles_and_scripts_are_served_minified(served):
    """The collected copy of a file of ours is its minified text, the repository's stays as
    written (comments and all)."""
    source = Path("static/js/game-shell.js").read_text()
    collected = Path(served.path(served.stored_name("js/game-shell.js"))).read_text()
    assert "//" in source and len(collected) < 0.75 * len(source)
    assert "\n  " not in collected
    vendored = Path("static/vendor/htmx/htmx.min.js").read_bytes()
    assert Path(served.path(served.stored_name("vendor/htmx/htmx.min.js"))).read_bytes() == vendored


def fetched(client: Client, path: str) -> bytes:
    """The page's bytes as a browser receives them (the site gzips pages itself)."""
    response = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response["Content-Encoding"] == "gzip"
    return response.content


@pytest.mark.parametrize("key", list(GAMES))
def test_the_game_page_weighs_under_60_kb_compressed(alice, bob, carol, key, served):
    game = start(alice, bob, key)
    player, watcher = Client(), Client()
    player.force_login(alice)
    watcher.force_login(carol)
    pages = {
        "player": fetched(player, f"/games/{game.pk}/"),
        "spectator": fetched(watcher, f"/games/{game.pk}/"),
    }
    finished = play_out(game)
    pages["result"] = fetched(player, f"/games/{finished.pk}/")
    for who, sent in pages.items():
        sizes = weight(sent, served)
        total = sum(sizes.values())
        print(f"{key} {who}: {total / 1024:.1f} KB compressed {sizes}")
        assert total < BUDGET, f"{key} ({who}) weighs {total} bytes: {sizes}"
