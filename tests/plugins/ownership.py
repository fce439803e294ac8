"""Which files of the site belong to one game, and which are shared: found from the registry
and the files on disk, never from a hand-kept list, so a new shared module is checked the
day it is written.

A game owns its engine package (where its engine class is defined), its plug-in (the line of
``settings.REMI_GAMES``: a package such as ``games/presenters/remi/``, owned whole, or a
module whose folder is owned whole when it carries the game's templates or static files),
and, wherever a plug-in still keeps them in the project's folders, its templates folder
(``templates/games/<key>/``), its rules page (``templates/rules/<key>.html``) and its script
(``static/js/<key>.js``).  Every other source file of the site's apps is shared.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from django.conf import settings

from games.engine import GAMES
from games.presenters import PRESENTERS

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "accounts",
    "bot_api",
    "chat",
    "games",
    "notifications",
    "remi_site",
    "reviews",
    "tournaments",
)


@dataclass(frozen=True)
class Owned:
    key: str
    names: frozenset[str]  # what would name the game: its key, aliases, package names
    folders: tuple[Path, ...]
    files: frozenset[Path]

    def owns(self, path: Path) -> bool:
        return path in self.files or any(path.is_relative_to(f) for f in self.folders)


def _module_path(name: str) -> Path:
    path = Path(sys.modules[name].__file__ or "")
    return path.parent if path.name == "__init__.py" else path


def owned_by_games() -> list[Owned]:
    owned = []
    plugins = {import_module(p).GAME.key: p for p in settings.REMI_GAMES}
    for key, game in GAMES.items():
        engine_package = type(game).__module__.rsplit(".", 1)[0]
        engine_dir = _module_path(engine_package)
        plugin = _module_path(plugins[key])
        folders = [engine_dir, ROOT / "templates" / "games" / key]
        files = [ROOT / "templates" / "rules" / f"{key}.html", ROOT / "static" / "js" / f"{key}.js"]
        if plugin.is_dir():
            folders.append(plugin)
        elif any((plugin.parent / kind).is_dir() for kind in ("templates", "static")):
            # A plug-in that carries its templates or files lives in a folder of its own.
            folders.append(plugin.parent)
        else:
            files.append(plugin)
        names = {key, *game.aliases, engine_dir.name, engine_dir.name.replace("_", "-")}
        owned.append(
            Owned(key, frozenset(names), tuple(folders), frozenset(p.resolve() for p in files))
        )
    assert set(PRESENTERS) == set(GAMES)
    return owned


def shared_files(suffixes: tuple[str, ...] = (".py",)) -> Iterator[Path]:
    """Every source file of the site's apps (and the project's templates) no game owns."""
    owned = owned_by_games()
    tops = [ROOT / app for app in APPS] + [ROOT / "templates"]
    for top in tops:
        for path in sorted(top.rglob("*")):
            if path.suffix not in suffixes or "migrations" in path.parts:
                continue
            path = path.resolve()
            if not any(game.owns(path) for game in owned):
                yield path
