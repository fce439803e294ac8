"""A player's rating history as the points of a small server-drawn SVG chart (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 120
# Room for the axis labels on the left and a margin elsewhere.
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 8, 8


@dataclass(frozen=True, slots=True)
class Chart:
    points: str  # "x,y x,y …" for an SVG polyline
    low: int
    high: int
    first: int
    last: int
    games: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom_y: int = HEIGHT - BOTTOM

    @property
    def change(self) -> int:
        return self.last - self.first


def chart(ratings: Sequence[int]) -> Chart | None:
    """The chart of ``ratings`` (the rating before the first rated game, then after each).

    None for fewer than two values: a single point draws no line."""
    if len(ratings) < 2:
        return None
    low, high = min(ratings), max(ratings)
    # A flat history is drawn as a line across the middle rather than dividing by zero.
    span = (high - low) or 1
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM
    step = inner_w / (len(ratings) - 1)
    points = []
    for index, value in enumerate(ratings):
        x = LEFT + index * step
        y = TOP + inner_h / 2 if high == low else TOP + (high - value) / span * inner_h
        points.append(f"{x:.1f},{y:.1f}")
    return Chart(" ".join(points), low, high, ratings[0], ratings[-1], len(ratings) - 1)
