"""The plug-in conformance check: no shared file of the site names a game.

The shared files are found, not listed (``ownership``): every Python module of the site's
apps and every template that no registered game owns.  A file names a game when it says one
of the game's names, points into its files, imports a module the game owns or compares a
key with a written string (``naming``).  The registry is the only way to a game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .naming import python_namings, source_namings, template_namings, text_namings
from .ownership import ROOT, owned_by_games, shared_files

# Where a game's name may be said, and why.  Keep it short: each line is a hole.
MAY_NAME = {
    # The site is called Remi; its cache keys carry the site's name, not the game's.
    "remi_site/redis_urls.py": "the site's name",
}


def _namings(path: Path) -> list[str]:
    games = owned_by_games()
    found = python_namings(path, games) if path.suffix == ".py" else template_namings(path, games)
    return list(found)


SHARED = [str(path.relative_to(ROOT)) for path in shared_files((".py", ".html"))]


def test_the_shared_files_are_found_on_disk_not_listed():
    # Not vacuous: the move path, the lobby, tournaments and the pages are all among them,
    # and every game's own folders are not.
    for expected in (
        "games/play/services.py",
        "games/play/consumers.py",
        "games/presenters/base.py",
        "games/presenters/log_entries.py",
        "games/presenters/card_rummy.py",
        "games/engine/core/protocol.py",
        "tournaments/services.py",
        "templates/games/replay.html",
    ):
        assert expected in SHARED
    owned = owned_by_games()
    assert len(owned) >= 4
    for game in owned:
        assert not any(name.startswith(f"templates/games/{game.key}/") for name in SHARED)
        for folder in game.folders:
            if folder.is_relative_to(ROOT):
                inside = folder.relative_to(ROOT)
                assert not any(name.startswith(f"{inside}/") for name in SHARED)
    # Each built-in game's presentation is a package of its own, owned whole.
    presentations = [f for game in owned for f in game.folders if f.parent.name == "presenters"]
    assert len(presentations) >= 4


@pytest.mark.parametrize("name", SHARED)
def test_no_shared_file_names_a_game(name: str) -> None:
    found = _namings(ROOT / name)
    if name in MAY_NAME:
        assert found, f"{name} no longer names a game: take it off MAY_NAME"
        return
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        'joly = key == "remi"',
        "from games.engine.remi.rules import REMI",
        "from games.presenters.rummikub import forms",
        'template = "games/basic-rummy/game.html"',
        'if table.game_type in ("thai-rummy",): pass',
        'game = get_game("tile-rummy")',
    ],
)
def test_the_check_sees_each_way_of_naming_a_game(source: str) -> None:
    assert list(source_namings(source, "sample.py", "games.sample", owned_by_games()))


def test_the_check_sees_a_template_that_names_a_game() -> None:
    text = '{% include "games/remi/game.html#status" %}'
    assert list(text_namings(text, "sample.html", owned_by_games()))
