"""The log speaks to the viewer: "You are ready", never "You is ready"."""

from __future__ import annotations

import pytest

from games.engine.remi.events import Event
from games.presenters.remi.text import event_line

NAMES = ["Ana", "Bogdan"]


@pytest.mark.parametrize(
    ("event", "to_ana", "to_bogdan"),
    [
        (Event("start", 0), "Play begins: you open.", "Play begins: Ana opens."),
        (Event("ready", 0), "You are ready.", "Ana is ready."),
        (
            Event("doubla", 0, label="low", secret=("R5",)),
            "You offer a doubla (low) — your R5 pair.",
            "Ana offers a doubla (low).",
        ),
        (
            Event("exchange-asked", 1, other=0),
            "Bogdan asks you to exchange doublas.",
            "You ask Ana to exchange doublas.",
        ),
        (
            Event("exchanged", 1, other=0),
            "Bogdan and you exchanged doublas.",
            "You and Ana exchanged doublas.",
        ),
        (Event("few-tiles", 0, count=1), "You have 1 tile left!", "Ana has 1 tile left!"),
        (Event("discarded", 0, tiles=("R5",)), "You discarded R5.", "Ana discarded R5."),
    ],
)
def test_log_lines_agree_with_you_and_with_a_name(event, to_ana, to_bogdan):
    assert event_line(event, NAMES, 0) == to_ana
    assert event_line(event, NAMES, 1) == to_bogdan
    # A spectator reads names only.
    assert "you" not in event_line(event, NAMES, None).lower().split()
