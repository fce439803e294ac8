"""Pocket Rummy's reviewer for the site's review and hints: nothing is ever laid on a table in
this game, so every turn's best play lays nothing, and a review says each player missed
nothing.  Enough for the review pages to work for it like for any game."""

from __future__ import annotations

from games.engine.core.protocol import JSON
from games.engine.core.review import BestPlay, Measure, Reviewer

from .engine import DISCARD


class PocketReviewer(Reviewer):
    unit = "tiles"

    def decides(self, view: JSON) -> bool:
        return view["phase"] == DISCARD and view["turn"] == view["seat"]

    def table(self, view: JSON) -> Measure:
        return Measure()

    def position(self, view: JSON) -> JSON:
        return {"rack": list(view["hand"] or []), "table": [], "discards": view["discards"]}

    def best(self, view: JSON, stop: object) -> BestPlay:
        return BestPlay(Measure())
