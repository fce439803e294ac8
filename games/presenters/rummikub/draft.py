"""The private draft of a tile rummy turn: the table and rack as the player is rearranging
them before pressing Done.

**Where it lives.**  On the player's own ``Seat.rack_order`` (JSON), tagged with the game and
the version it was made at: ``{"game": id, "version": v, "melds": [[...], ...], "tiles":
[rack order]}``.  The server is the record because the judging is the engine's (``judge``),
a reload or a second device finds the draft again, and nothing else ever reads another
seat's ``rack_order`` — only the drafting seat's own requests render it.  A draft made at an
older version is stale (the turn was played, or timed out) and is ignored; its rack order
still arranges the rack.

**What is checked.**  A posted draft must hold exactly the tiles of the turn-start table and
the player's rack (anything else is refused and nothing is saved).  Each meld is classified
on its own, so every invalid meld is marked, and the whole arrangement is judged as a play
would be (the faults that would cost the penalty, or the refusal it would meet).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.engine.errors import IllegalAction, InvalidAction
from games.engine.rummikub import Group, Play, classify, judge
from games.engine.rummikub.melds import Meld, MeldFault
from games.engine.rummikub.state import State

from . import text


def plain(word: str) -> str:
    """A tile word without a joker's reading: what the tile itself is."""
    return word.partition("=")[0]


def turn_start(state: State, seat: int) -> tuple[list[list[str]], list[str]]:
    """The table (jokers written plainly, so they may move) and the rack at the turn start."""
    melds = [[plain(str(t)) for t in meld.tiles] for meld in state.table]
    return melds, [str(t) for t in state.racks[seat]]


def stored(saved: object, game_id: int, version: int) -> tuple[list[list[str]], list[str]] | None:
    """The draft saved on the seat for this game at this version, if there is one."""
    if not isinstance(saved, dict) or saved.get("game") != game_id:
        return None
    melds, rack = saved.get("melds"), saved.get("tiles")
    if saved.get("version") != version or not isinstance(melds, list):
        return None
    if not isinstance(rack, list):
        return None
    return [list(map(str, m)) for m in melds if isinstance(m, list)], [str(t) for t in rack]


def to_save(
    game_id: int, version: int, melds: list[list[str]] | None, rack: list[str]
) -> dict[str, Any]:
    """The JSON kept on the seat; ``melds=None`` keeps only the rack order (no draft)."""
    saved: dict[str, Any] = {"game": game_id, "tiles": rack}
    if melds is not None:
        saved.update(version=version, melds=melds)
    return saved


def check_tiles(state: State, seat: int, melds: list[list[str]], rack: list[str]) -> None:
    """A draft is the turn-start tiles rearranged, nothing more or less."""
    start_melds, start_rack = turn_start(state, seat)
    have = Counter(w for m in start_melds for w in m) + Counter(start_rack)
    posted = Counter(plain(w) for m in melds for w in m) + Counter(rack)
    if posted != have:
        raise ValueError(_("That draft is not the tiles of the table and your rack."))


@dataclass
class Judged:
    """A draft as the page shows it, judged."""

    melds: list[dict[str, Any]]
    rack: list[str]
    changed: bool
    faults: list[str] = field(default_factory=list)
    problem: str = ""
    first_melds: int | None = None  # the new melds' value, before the first melds
    needed: int = 0

    @property
    def ready(self) -> bool:
        return (
            self.changed
            and not self.problem
            and not self.faults
            and all(m["ok"] for m in self.melds)
        )


def _classify(words: Sequence[str], state: State) -> Meld | MeldFault:
    try:
        group = Group.parse(list(words))
        return classify(group.tiles, state.rules, group.designations())
    except MeldFault as fault:
        return fault
    except InvalidAction:
        return MeldFault("mixed", "not a meld")


def judged(
    state: State, seat: int, melds: list[list[str]], rack: list[str], names: Sequence[str]
) -> Judged:
    """Mark each meld, total the new melds before the first melds, and judge the play."""
    start_melds, _start_rack = turn_start(state, seat)
    old = Counter(tuple(sorted(m)) for m in start_melds)
    melded = state.melded[seat]
    rows = []
    new_points = 0
    for index, words in enumerate(melds):
        found = _classify(words, state)
        key = tuple(sorted(plain(w) for w in words))
        is_old = old[key] > 0
        if is_old:
            old[key] -= 1
        if isinstance(found, Meld):
            if not is_old:
                new_points += found.points
            rows.append(
                {
                    "index": index,
                    "words": list(words),
                    "shown": [str(t) for t in found.tiles],
                    "stands": [str(s) for s in found.stands_for],
                    "ok": True,
                    "reason": "",
                    "kind": found.kind,
                    "points": found.points,
                    "new": not is_old,
                }
            )
        else:
            rows.append(
                {
                    "index": index,
                    "words": list(words),
                    "shown": [plain(w) for w in words],
                    "stands": [plain(w) for w in words],
                    "ok": False,
                    "reason": text.meld_reason(found.code),
                    "kind": "",
                    "points": 0,
                    "new": not is_old,
                }
            )
    changed = [sorted(m) for m in melds] != [sorted(m) for m in start_melds] or len(melds) != len(
        start_melds
    )
    result = Judged(rows, rack, changed, needed=state.rules.first_meld_minimum)
    if not melded:
        result.first_melds = new_points
    if not changed or not melds:
        return result
    play = Play(tuple(Group.parse(list(words)) for words in melds))
    try:
        judgement = judge(state.table, state.racks[seat], melded, play, state.rules)
    except IllegalAction as refusal:
        params: Mapping[str, Any] = getattr(refusal, "params", {})
        result.problem = text.refusal_text(refusal.code, params, names)
        return result
    result.faults = [
        text.fault_text(f) for f in judgement.faults if f.get("code") != "invalid-meld"
    ]
    return result
