"""The bot-strength bench (``bench/strength.py``) refuses a preset name it does not know: a
misspelt name would otherwise play nothing for its game and read like a whole run.  Run as
the script it is: it makes the engine's own games the registry, which a test process that
imported it would then share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def strength(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_misspelt_preset_is_an_error_naming_it_and_the_valid_ones(tmp_path):
    out = tmp_path / "strength.md"
    run = strength("--game", "basic-rummy", "--presets", "block-rumy", "--out", str(out))
    assert run.returncode == 2
    assert "unknown preset block-rumy for basic-rummy" in run.stderr
    assert "block-rummy" in run.stderr.split("valid:")[1]
    assert not out.exists()


def test_a_known_preset_is_played_and_its_row_written(tmp_path):
    out = tmp_path / "strength.md"
    run = strength(
        "--game", "basic-rummy", "--presets", "block-rummy", "--games", "4",
        "--pairings", "normal/easy", "--out", str(out),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    rows = [line for line in out.read_text().splitlines() if line.startswith("| basic-rummy |")]
    assert rows[0].startswith("| basic-rummy | block-rummy | normal vs easy | 4 |")
    # Then the CPU per move of each level that played.
    assert [row.split(" | ")[1] for row in rows[1:]] == ["normal", "easy"]
