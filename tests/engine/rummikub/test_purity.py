"""The tile rummy's package is pure like the rest of the engine: no Django, and randomness
only from generators kept in the state (the engine-wide scan does not look into packages)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "games" / "engine" / "rummikub"


def global_random_calls(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found.append(f"{node.lineno}: from random import")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.append(f"{node.lineno}: random.{node.attr}")
    return found


def test_the_package_never_calls_the_global_random_generator():
    offenders = {
        path.name: calls
        for path in sorted(PACKAGE.glob("*.py"))
        if (calls := global_random_calls(path.read_text()))
    }
    assert offenders == {}


def test_the_scan_finds_a_global_random_call():
    assert global_random_calls("import random\nrandom.shuffle([])\n") == ["2: random.shuffle"]


def test_importing_the_package_does_not_import_django():
    probe = (
        "import sys, games.engine.rummikub, games.engine.rummikub.randomplay, "
        "games.engine.rummikub.scenario\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=PACKAGE.parents[2],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""
