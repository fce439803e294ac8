"""What "a shared file names a game" means, read with ``ast`` for Python and as text for
templates: a string that is one of its names (key, aliases, package), a path into its own
files (``games/<key>/``, ``rules/<key>.html``, ``js/<key>.js``), an import of a module it
owns, or a comparison of a game's key with a constant (a branch on the game)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from .ownership import ROOT, Owned


def _paths_into(key: str) -> tuple[str, ...]:
    return (f"games/{key}/", f"rules/{key}.html", f"js/{key}.js")


def _owned_modules(game: Owned) -> list[str]:
    modules = []
    for path in (*game.folders, *game.files):
        module_file = path.suffix == ".py" or (path / "__init__.py").exists()
        if module_file and path.is_relative_to(ROOT):
            modules.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return modules


def _absolute(node: ast.ImportFrom, module: str, package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def python_namings(path: Path, games: list[Owned]) -> Iterator[str]:
    where = path.relative_to(ROOT)
    module = ".".join(where.with_suffix("").parts)
    package = path.name == "__init__.py"
    if package:
        module = module.rsplit(".", 1)[0]
    yield from source_namings(path.read_text(encoding="utf-8"), str(where), module, games, package)


def source_namings(
    source: str, where: str, module: str, games: list[Owned], package: bool = False
) -> Iterator[str]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            # Exact: a key is lowercase; "Remi" with a capital is the site's own name.
            text = node.value.strip()
            for game in games:
                if text in game.names:
                    yield f"{where}:{node.lineno} says {node.value!r}: {game.key}'s name"
                for path_into in _paths_into(game.key):
                    if path_into in text.lower():
                        yield f"{where}:{node.lineno} names {game.key}'s file {path_into}"
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, package)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            for game in games:
                for owned in _owned_modules(game):
                    if target == owned or target.startswith(owned + "."):
                        yield f"{where}:{node.lineno} imports {target}, {game.key}'s own"
        if isinstance(node, ast.Compare):
            # A game's key or type compared with a written string (or strings): a branch.
            said = ast.unparse(node)
            written = [
                side
                for side in (node.left, *node.comparators)
                if isinstance(side, ast.Constant | ast.Tuple | ast.List | ast.Set)
                and "'" in ast.unparse(side)
            ]
            if written and ("game_type" in said or re.search(r"\bkey\b", said)):
                yield f"{where}:{node.lineno} branches on the game: {said}"


def template_namings(path: Path, games: list[Owned]) -> Iterator[str]:
    yield from text_namings(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), games)


def text_namings(text: str, where: str, games: list[Owned]) -> Iterator[str]:
    for game in games:
        quoted = "|".join(re.escape(name) for name in sorted(game.names))
        said = [*_paths_into(game.key)]
        for number, line in enumerate(text.splitlines(), 1):
            if re.search(rf"""["']({quoted})["']""", line, flags=re.I):
                yield f"{where}:{number} says one of {game.key}'s names"
            for path_into in said:
                if path_into in line:
                    yield f"{where}:{number} names {game.key}'s file {path_into}"
