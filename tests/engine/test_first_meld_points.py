"""The running total a player sees while composing their first melds: groups that are melds
count at their first-meld value, groups still being built count nothing."""

from __future__ import annotations

import pytest

from games.engine.remi.hints import first_meld_points


@pytest.mark.parametrize(
    ("selection", "points"),
    [
        ("", 0),
        ("R10 R11", 0),  # two tiles are no meld yet
        ("R1 R2 R3", 15),  # a low run: 5 a tile
        ("R10 R11 R12", 30),
        ("R10 R11 R12 | K5 B5 Y5", 45),
        ("K1 B1 Y1", 75),  # a set of ones: 25 each
        ("R12 R13 R1", 30),  # the one after the king counts 10
        ("J R5 R6", 15),  # the Joly counts as the tile it stands for
        ("R10 R11 R12 | K5 B5", 30),  # the second group is still being built
        ("K5 B5 Y5 R5 | X9", 20),  # a word that is no tile is ignored with its group
        ("| |", 0),
    ],
)
def test_a_selection_counts_its_finished_melds(selection: str, points: int) -> None:
    assert first_meld_points(selection) == points
