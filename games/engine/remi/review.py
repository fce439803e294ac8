"""What Remi tells the shared review (``core.review``): the play phase is where a turn is
judged, and the exact solver (``solver.solve``, objective tiles) says what could be laid."""

from __future__ import annotations

from typing import Any, ClassVar

from ..core.budget import Stop
from ..core.review import FIRST_MELD, LAY_OFF, MELD, NOTHING, BestPlay, Measure, Reviewer
from ..tiles import format_tiles, parse_tiles
from .bots import visible_state
from .melds import RUN, Meld
from .solver import TILES, Plan, solve
from .state import PLAY, USE_DISCARD

JSON = dict[str, Any]


class RemiReviewer(Reviewer):
    unit: ClassVar[str] = "tiles"

    def decides(self, view: JSON) -> bool:
        return (
            view["seat"] is not None
            and view["result"] is None
            and view["phase"] == PLAY
            and view["turn"] == view["seat"]
        )

    def table(self, view: JSON) -> Measure:
        melds = [table_meld(data) for data in view["melds"]]
        return Measure(sum(len(m.tiles) for m in melds), sum(m.points for m in melds))

    def position(self, view: JSON) -> JSON:
        return {
            "rack": rack_codes(view),
            "table": [table_meld(m).notation() for m in view["melds"]],
            "discards": [str(t) for t in view["discards"]],
        }

    def best(self, view: JSON, stop: Stop) -> BestPlay:
        return self._plan(view, stop, may_add=True)

    def fallback(self, view: JSON, stop: Stop) -> BestPlay | None:
        # New melds only: far fewer pieces to combine than with every table meld to grow.
        return self._plan(view, stop, may_add=False)

    def _plan(self, view: JSON, stop: Stop, *, may_add: bool) -> BestPlay:
        state = visible_state(view)
        seat = view["seat"]
        first = not view["has_melded"][seat]
        must = []
        if state.pending == USE_DISCARD and state.pending_tile is not None:
            must = [state.pending_tile]
        plan = solve(
            state.racks[seat],
            [m.meld for m in state.melds],
            state.rules,
            first_meld=first,
            may_add=may_add and not first,
            objective=TILES,
            keep=1,
            must_use=must,
            stop=stop,
        )
        return as_best(plan, first=first)


def table_meld(data: JSON) -> Meld:
    """A meld as a view shows it (as ``bots.visible_state`` reads it)."""
    tiles = tuple(parse_tiles(data["tiles"]))
    stands = tuple(parse_tiles(data["as"]))
    start = stands[0].number if data["kind"] == RUN else 0
    return Meld(data["kind"], tiles, stands, start)


def rack_codes(view: JSON) -> list[str]:
    rack = view.get("rack") or ""
    tiles = parse_tiles(rack) if isinstance(rack, str) else parse_tiles(" ".join(rack))
    return [str(t) for t in tiles]


def as_best(plan: Plan | None, *, first: bool) -> BestPlay:
    if plan is None or not plan.tiles:
        return BestPlay(Measure(), kind=NOTHING)
    placed = [t for g in plan.melds for t in g.tiles]
    placed += [t for _, g in plan.additions for t in g.tiles]
    kind = FIRST_MELD if first else (LAY_OFF if not plan.melds else MELD)
    return BestPlay(
        Measure(plan.tiles, plan.points),
        tuple(str(a) for a in plan.actions()),
        tuple(format_tiles(placed).split()),
        kind,
        True,
        {"points": plan.points},
    )
