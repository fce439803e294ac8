"""No file outside this folder knows Pocket Rummy: not by its key, its name or its package
(``git grep``), and the plug-in conformance check, run with it registered, finds no shared
file that names it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.plugins.naming import python_namings, template_namings
from tests.plugins.ownership import owned_by_games, shared_files

from .engine import GAME

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)
def test_git_grep_finds_the_game_only_in_its_own_folder():
    folder = HERE.relative_to(ROOT).as_posix()
    words = {GAME.key, HERE.name, "pocket"}
    for word in sorted(words):
        found = subprocess.run(
            ["git", "grep", "--untracked", "-I", "-i", "-n", "-F", word, "--", ".", f":!{folder}/"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert found.returncode == 1, f"{word!r} outside {folder}/:\n{found.stdout}"


def test_no_shared_file_names_it_while_it_is_registered():
    (game,) = [owned for owned in owned_by_games() if owned.key == GAME.key]
    assert game.owns(HERE / "templates" / "games" / GAME.key / "game.html")
    found = []
    for path in shared_files((".py", ".html")):
        check = python_namings if path.suffix == ".py" else template_namings
        found.extend(check(path, [game]))
    assert not found, "\n".join(found)
