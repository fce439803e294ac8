"""What the tile rummy tells the shared review (``core.review``): every turn is judged from
its start, and the exact solver (``solver.solve``, objective tiles, the whole table free to
rearrange) says what could be laid.  Its fallback, when the solver runs out of time, is the
hard bot's bounded search."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from ..core.budget import Stop
from ..core.review import (
    FIRST_MELD,
    LAY_OFF,
    MELD,
    NOTHING,
    REARRANGE,
    BestPlay,
    Measure,
    Reviewer,
)
from ..tiles import Tile, format_tiles, parse_tiles
from . import solver
from .actions import Group, Play
from .arrangement import judge
from .bots import _replacements, as_play, searched_table, table_from_view
from .melds import Meld
from .rules import Rules

JSON = dict[str, Any]

# States the fallback's searches may visit (the hard bot's own budget).
FALLBACK_BUDGET = 5_000


class RummikubReviewer(Reviewer):
    unit: ClassVar[str] = "tiles"

    def decides(self, view: JSON) -> bool:
        return view["seat"] is not None and view["result"] is None and view["turn"] == view["seat"]

    def table(self, view: JSON) -> Measure:
        rules = Rules.from_dict(view["rules"])
        tiles = [t for m in table_from_view(view) for t in m.tiles]
        return Measure(len(tiles), sum(_value(t, rules) for t in tiles))

    def position(self, view: JSON) -> JSON:
        return {
            "rack": [str(t) for t in parse_tiles(view["rack"] or "")],
            "table": [m["notation"] for m in view["table"]],
            "discards": [],
        }

    def best(self, view: JSON, stop: Stop) -> BestPlay:
        table, rack, melded, rules = _seen(view)
        pinned = [_replacements(m, reading) for m in table for reading in m.jokers_as]
        plan = solver.solve(
            [m.tiles for m in table],
            rack,
            rules,
            "tiles",
            initial=not melded,
            pinned=pinned,
            stop=stop,
        )
        if plan is None or not plan.placed:
            return BestPlay(Measure(), kind=NOTHING)
        play = Play(
            tuple(
                Group(tuple(tiles), tuple(readings))
                for tiles, readings in zip(plan.melds, plan.jokers_as, strict=True)
            )
        )
        judged = judge(table, rack, melded, play, rules)
        if not judged.ok:
            # A rule the solver does not know (a locked meld, a freed joker's own meld):
            # the bounded search stands in for it.
            found = self.fallback(view, stop)
            return found if found is not None else BestPlay(Measure(), kind=NOTHING, exact=False)
        return _as_best(table, judged.table, plan.placed, melded, rules, exact=True)

    def fallback(self, view: JSON, stop: Stop) -> BestPlay | None:
        table, rack, melded, rules = _seen(view)
        found = searched_table(table, rack, melded, rules, FALLBACK_BUDGET)
        if found is None:
            return BestPlay(Measure(), kind=NOTHING, exact=False)
        judged = judge(table, rack, melded, as_play(found), rules)
        if not judged.ok:
            return None
        return _as_best(table, judged.table, judged.placed, melded, rules, exact=False)


def _seen(view: JSON) -> tuple[list[Meld], list[Tile], bool, Rules]:
    seat = view["seat"]
    return (
        table_from_view(view),
        parse_tiles(view["rack"]),
        bool(view["melded"][seat]),
        Rules.from_dict(view["rules"]),
    )


def _value(tile: Tile, rules: Rules) -> int:
    return rules.joker_value if tile.is_joker else tile.number


def rearranges(before: Sequence[Meld], after: Sequence[Meld]) -> bool:
    """Whether a table ``after`` the move splits a meld that was there ``before``: some old
    meld's tiles are not all inside one new meld (growing a meld at its ends is no
    rearrangement)."""
    for old in before:
        need = Counter(old.tiles)
        if not any(not (need - Counter(new.tiles)) for new in after):
            return True
    return False


def _as_best(
    before: list[Meld],
    after: Sequence[Meld],
    placed: Sequence[Tile],
    melded: bool,
    rules: Rules,
    *,
    exact: bool,
) -> BestPlay:
    if not placed:
        return BestPlay(Measure(), kind=NOTHING, exact=exact)
    if not melded:
        kind = FIRST_MELD
    elif rearranges(before, after):
        kind = REARRANGE
    elif len(after) == len(before):
        kind = LAY_OFF
    else:
        kind = MELD
    points = sum(_value(t, rules) for t in placed)
    first = sum(m.points for m in after) - sum(m.points for m in before)
    return BestPlay(
        Measure(len(placed), points),
        (str(as_play(after)),),
        tuple(format_tiles(list(placed)).split()),
        kind,
        exact,
        {"points": first if not melded else points},
    )
