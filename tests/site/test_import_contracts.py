"""The layers, as contracts on imports: a module that reaches where its layer may not fails
here with the file and line.  Every import counts, including those inside functions (which
is where a circle hides).  docs/architecture.md draws the layers.

The contracts are few and an import is easy to read with ``ast``, so no tool is needed
(import-linter would do the same from a configuration file).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = (
    "accounts",
    "bot_api",
    "chat",
    "games",
    "notifications",
    "remi_site",
    "reviews",
    "tournaments",
)
FRAMEWORKS = ("django", "channels", "celery", "daphne", "redis", "channels_redis", "kombu")
APPS = tuple(name for name in OURS if name != "remi_site")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (for ``from a import b``, ``a``)
    where: str  # path:line


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(source: str, module: str, where: str, package: bool = False) -> Iterator[Import]:
    """Every import in ``source`` (module ``module``), relative ones made absolute."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, f"{where}:{node.lineno}")
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level:
                base = module.split(".") if package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, target] if target else base)
            yield Import(module, target, f"{where}:{node.lineno}")
            # ``from games import tasks`` imports the module games.tasks: each name counts as
            # a target too (a class or function name only adds a target under its module).
            for alias in node.names:
                if alias.name != "*":
                    name = f"{target}.{alias.name}" if target else alias.name
                    yield Import(module, name, f"{where}:{node.lineno}")


def all_imports() -> list[Import]:
    found = []
    for top in OURS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            where = str(path.relative_to(ROOT))
            found.extend(
                imports_of(
                    path.read_text(), module_name(path), where, package=path.name == "__init__.py"
                )
            )
    return found


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@dataclass(frozen=True)
class Contract:
    """Modules under ``layer`` import nothing under ``forbidden`` (except under ``allowed``)."""

    name: str
    layer: tuple[str, ...]
    forbidden: tuple[str, ...]
    allowed: tuple[str, ...] = ()

    def broken_by(self, imports: list[Import]) -> list[str]:
        return [
            f"{i.where}: {i.module} imports {i.target}"
            for i in imports
            if within(i.module, self.layer)
            and within(i.target, self.forbidden)
            and not within(i.target, self.allowed)
        ]


CONTRACTS = [
    # The rules are pure Python: no framework, no database, no other layer of the site.
    Contract("the engines are pure", ("games.engine",), FRAMEWORKS + OURS, ("games.engine",)),
    Contract(
        "the tournament maths is pure",
        ("tournaments.formats", "tournaments.rating_maths"),
        FRAMEWORKS + OURS,
        ("tournaments.formats", "tournaments.rating_maths"),
    ),
    # Tables, moves and clocks are what the other apps build on; they learn of a move through
    # hooks (tournaments.live, notifications) rather than being imported by the move path.
    Contract(
        "games does not reach up into the apps built on it",
        ("games",),
        ("tournaments", "notifications", "chat", "bot_api", "reviews"),
    ),
    # games/ is layered by folder (docs/architecture.md): the table lifecycle and the lobby
    # (tables) on the move path and the live pages (play), on the presentations, on the
    # clocks.  A move hands bots' turns and timeouts to the workers through
    # games.clocks.work_queue, which the Celery tasks fill in: nothing below the tasks imports
    # them back (a circle there was once held apart by late imports).
    Contract(
        "only the Celery layer and the wiring import the tasks",
        ("games.play", "games.tables", "games.clocks", "games.presenters", "games.engine"),
        ("games.tasks",),
    ),
    Contract(
        "the move path and the live pages know nothing of the lobby",
        ("games.play",),
        ("games.tables",),
    ),
    Contract(
        "the presentations sit below the pages",
        ("games.presenters",),
        ("games.play", "games.tables", "games.clocks.seat_clocks"),
    ),
    Contract(
        "the clocks sit below the move path",
        ("games.clocks.seat_clocks",),
        ("games.play", "games.tables", "games.presenters"),
    ),
    # The project's wiring (URLs, ASGI routing, settings) sits on top: apps read settings
    # through django.conf and never import the wiring back.
    Contract(
        "no app imports the project's wiring",
        APPS,
        (
            "remi_site.urls",
            "remi_site.asgi",
            "remi_site.wsgi",
            "remi_site.routing",
            "remi_site.settings",
        ),
    ),
]


@pytest.mark.parametrize("contract", CONTRACTS, ids=[c.name for c in CONTRACTS])
def test_the_layers_hold(contract):
    imports = all_imports()
    assert any(within(i.module, contract.layer) for i in imports), "the layer has no modules"
    broken = contract.broken_by(imports)
    assert not broken, f"{contract.name}, broken:\n" + "\n".join(broken)


def test_a_broken_contract_is_reported_with_its_line():
    """The check can fail: an engine module importing Django, or the site, relatively too."""
    source = (
        "import os\n\ndef late():\n    from django.db import models\n"
        "    from ...games import services\n"
    )
    imports = list(imports_of(source, "games.engine.remi.bad", "games/engine/remi/bad.py"))
    assert [i.target for i in imports] == [
        "os",
        "django.db",
        "django.db.models",
        "games.games",
        "games.games.services",
    ]
    broken = CONTRACTS[0].broken_by(imports)
    assert broken == [
        "games/engine/remi/bad.py:4: games.engine.remi.bad imports django.db",
        "games/engine/remi/bad.py:4: games.engine.remi.bad imports django.db.models",
        "games/engine/remi/bad.py:5: games.engine.remi.bad imports games.games",
        "games/engine/remi/bad.py:5: games.engine.remi.bad imports games.games.services",
    ]


@pytest.mark.parametrize(
    "line", ["from games.tasks import schedule_bot_move", "from games import tasks"]
)
def test_the_move_path_importing_the_tasks_back_is_reported(line):
    """The circle issue 29 found (services -> tasks, held apart by an import inside a function)
    is refused however it is written."""
    source = f"def after_commit():\n    {line}\n"
    imports = list(imports_of(source, "games.play.services", "games/play/services.py"))
    (contract,) = [c for c in CONTRACTS if "import the tasks" in c.name]
    broken = contract.broken_by(imports)
    assert broken[0] == "games/play/services.py:2: games.play.services imports games.tasks"
