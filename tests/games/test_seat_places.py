"""Where each seat sits around the table as one viewer sees it (``seat_place``): the viewer at
the bottom, then round the table in play order, left, across, right; a spectator takes the
first seat's chair."""

from __future__ import annotations

import pytest

from games.presenters.seat_names import seat_place


@pytest.mark.parametrize(
    ("players", "viewer", "expected"),
    [
        (2, 1, ["top", "bottom"]),
        (2, None, ["bottom", "top"]),
        (3, 0, ["bottom", "left", "right"]),
        (4, 1, ["right", "bottom", "left", "top"]),
        (4, None, ["bottom", "left", "top", "right"]),
        (5, 2, ["top-right", "right", "bottom", "left", "top-left"]),
        (6, 0, ["bottom", "left", "top-left", "top", "top-right", "right"]),
    ],
)
def test_each_seat_has_its_place(players, viewer, expected):
    assert [seat_place(seat, viewer, players) for seat in range(players)] == expected
