"""The games the site offers, found from one line each: ``settings.REMI_GAMES``.

Each line names a plug-in module that exposes ``GAME`` (its engine, a
:class:`~games.engine.core.protocol.GameEngine`) and ``PRESENTATION`` (a
:class:`~games.presenters.base.Presentation` with the same key).  Loading the list fills both
registries, ``games.engine.GAMES`` and ``games.presenters.PRESENTERS``, in its order: the
first game is the site's default.  A plug-in may keep its own templates in a ``templates``
folder and its own static files (its page script) in a ``static`` folder beside its module
(in its package, for a plug-in that is a package); :class:`TemplateLoader` and
:class:`StaticFinder` look there, so a game can live in one folder of its own (the test-only
game in ``tests/`` does).  ``collectstatic`` gathers the plug-ins' static files with the
project's, and WhiteNoise serves them from the finders in development.

A plug-in that builds on another one's files (Thai Rummy's page includes Basic Rummy's parts
and loads its script) names it in ``REQUIRES`` (module names); the list must then hold it.

The list is read when the app is ready and again whenever a test changes the setting, so a
test registers a game with one line (``settings.REMI_GAMES = [*..., "its.module"]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any, Literal, overload

from django.conf import settings
from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.exceptions import ImproperlyConfigured, SuspiciousFileOperation
from django.core.files.storage import FileSystemStorage
from django.template.autoreload import reset_loaders
from django.template.loaders.filesystem import Loader as FilesystemLoader
from django.utils._os import safe_join

from games.engine import register_games
from games.presenters import register_presentations

# Each plug-in's templates folder and static folder, if it has them (what TemplateLoader and
# StaticFinder search).
_template_dirs: list[Path] = []
_static_dirs: list[Path] = []


def plugin_modules(paths: Sequence[str]) -> list[ModuleType]:
    modules = [import_module(path) for path in paths]
    for module in modules:
        game, presentation = getattr(module, "GAME", None), getattr(module, "PRESENTATION", None)
        if game is None or presentation is None:
            raise ImproperlyConfigured(f"{module.__name__} exposes no GAME and PRESENTATION")
        if game.key != presentation.key:
            raise ImproperlyConfigured(
                f"{module.__name__}: the presentation's key {presentation.key!r} is not the "
                f"game's {game.key!r}"
            )
    for module in modules:
        missing = [name for name in getattr(module, "REQUIRES", ()) if name not in paths]
        if missing:
            raise ImproperlyConfigured(
                f"{module.__name__} builds on {', '.join(missing)}, which REMI_GAMES does not list"
            )
    return modules


def load(paths: Sequence[str]) -> None:
    """Make the plug-ins at ``paths`` (module names) the site's games, in that order."""
    modules = plugin_modules(paths)
    register_games(module.GAME for module in modules)
    register_presentations(module.PRESENTATION for module in modules)
    homes = [Path(module.__file__ or "").parent for module in modules]
    _template_dirs[:] = [home / "templates" for home in homes if (home / "templates").is_dir()]
    _static_dirs[:] = [home / "static" for home in homes if (home / "static").is_dir()]
    # A template name cached as missing before a plug-in brought it must be looked up again.
    reset_loaders()


def template_dirs() -> list[Path]:
    """The registered plug-ins' ``templates`` folders, in the registry's order."""
    return list(_template_dirs)


def static_dirs() -> list[Path]:
    """The registered plug-ins' ``static`` folders, in the registry's order."""
    return list(_static_dirs)


def reload_on_change(*, setting: str, **kwargs: Any) -> None:
    """``setting_changed`` receiver: a test that changes the list gets the registries it
    names (and the original ones back when its override ends)."""
    if setting == "REMI_GAMES":
        load(settings.REMI_GAMES)


class TemplateLoader(FilesystemLoader):
    """Templates from the plug-ins' own ``templates`` folders (after the project's)."""

    def get_dirs(self) -> list[str | Path]:
        return list(_template_dirs)


class StaticFinder(BaseFinder):
    """Static files from the plug-ins' own ``static`` folders (``STATICFILES_FINDERS``).

    Read from the registry at each call, not when the finder is made (Django keeps one
    finder for the process), so a game registered later is found too."""

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []

    @overload
    def find(self, path: str, find_all: Literal[False] = False) -> str | None: ...

    @overload
    def find(self, path: str, find_all: Literal[True]) -> list[str]: ...

    def find(self, path: str, find_all: bool = False) -> str | list[str] | None:
        matches = []
        for folder in _static_dirs:
            try:
                found = safe_join(folder, path)
            except SuspiciousFileOperation:  # a path climbing out of the folder: not here
                continue
            if Path(found).is_file():
                if not find_all:
                    return found
                matches.append(found)
        return matches if find_all else None

    def list(
        self, ignore_patterns: Iterable[str] | None
    ) -> Iterator[tuple[str, FileSystemStorage]]:
        for folder in _static_dirs:
            storage = FileSystemStorage(location=folder)
            for path in utils.get_files(storage, ignore_patterns):
                yield path, storage
