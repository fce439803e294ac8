"""The bot-strength bench (``bench/strength.py``) refuses a preset name it does not know: a
misspelt name would otherwise play nothing for its game and read like a whole run."""

from __future__ import annotations

import pytest

from bench import strength


def test_a_misspelt_preset_is_an_error_naming_it_and_the_valid_ones(tmp_path, capsys):
    out = tmp_path / "strength.md"
    with pytest.raises(SystemExit) as stopped:
        strength.main(["--game", "basic-rummy", "--presets", "block-rumy", "--out", str(out)])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "unknown preset block-rumy for basic-rummy" in error
    assert "block-rummy" in error.split("valid:")[1]
    assert not out.exists()


def test_a_known_preset_is_played_and_its_row_written(tmp_path, capsys):
    out = tmp_path / "strength.md"
    strength.main(
        [
            "--game", "basic-rummy", "--presets", "block-rummy", "--games", "4",
            "--pairings", "normal/easy", "--out", str(out),
        ]
    )  # fmt: skip
    rows = [line for line in out.read_text().splitlines() if line.startswith("| basic-rummy |")]
    assert rows[0].startswith("| basic-rummy | block-rummy | normal vs easy | 4 |")
    # Then the CPU per move of each level that played.
    assert [row.split(" | ")[1] for row in rows[1:]] == ["normal", "easy"]
