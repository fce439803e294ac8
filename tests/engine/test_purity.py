"""The engine is a pure library: importing it must not import Django, and it must draw
randomness only from generators kept in the state (never the global ``random``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def test_importing_the_engine_does_not_import_django():
    probe = (
        "import sys, games.engine, games.engine.remi.moves, games.engine.remi.randomplay, "
        "games.engine.remi.scenario, games.engine.remi.series\n"
        "leaked = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(','.join(leaked))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ENGINE.parents[1],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""


def test_engine_never_calls_the_global_random_generator():
    offenders = []
    # Every module of every game and of the core (rglob: the games live in packages).
    scanned = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "remi" / "turns.py" in scanned and ENGINE / "core" / "protocol.py" in scanned
    for path in scanned:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                offenders.append(f"{path.relative_to(ENGINE)}:{node.lineno} from random import …")
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{path.relative_to(ENGINE)}:{node.lineno} random.{node.attr}")
    assert offenders == []


def test_the_purity_scan_would_catch_a_global_random_call(tmp_path):
    # Guard against a scan that can never fail: the same walk over a bad module finds it.
    bad = ast.parse("import random\nx = random.shuffle([1, 2])\n")
    found = [
        n
        for n in ast.walk(bad)
        if isinstance(n, ast.Attribute) and getattr(n.value, "id", "") == "random"
    ]
    assert [n.attr for n in found] == ["shuffle"]
