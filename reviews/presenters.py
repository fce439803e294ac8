"""The review in the viewer's language, and only what the viewer may see of it.

The stored review holds every seat's turns, racks included.  A player is shown their own
turns only (as the replay shows them only their own rack); everyone sees the per-seat
summary, which says how much was laid, never which tiles or cards were held.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.core.review import FIRST_MELD, LAY_OFF, MELD, REARRANGE

JSON = dict[str, Any]


def pieces_text(count: int, unit: str) -> str:
    if unit == "cards":
        return ngettext("%(count)d card", "%(count)d cards", count) % {"count": count}
    return ngettext("%(count)d tile", "%(count)d tiles", count) % {"count": count}


def flag_text(flag: str | None, missed: int, points: int, unit: str) -> str:
    """ "Missed: ..." for a flagged turn; empty for one that missed nothing."""
    if flag is None:
        return ""
    what = pieces_text(missed, unit)
    if flag == FIRST_MELD:
        return _("Missed: a first meld of %(points)d was there.") % {"points": points}
    if flag == REARRANGE:
        return _("Missed: %(what)s could have been laid by rearranging the table.") % {"what": what}
    if flag == LAY_OFF:
        return _("Missed: %(what)s could have been laid off on the table.") % {"what": what}
    if flag == MELD:
        return _("Missed: %(what)s more could have been laid.") % {"what": what}
    return _("Missed: %(what)s more could have been laid.") % {"what": what}


def best_note(best: Mapping[str, Any]) -> str:
    if best["kind"] == "played":
        return _("No better play was found: what was played is the best known.")
    if not best["exact"]:
        return _("Best found within the time limit (not proven best).")
    return ""


def pieces(codes: Sequence[str], marked: Sequence[str] = ()) -> list[JSON]:
    """Codes to draw, with the ones of ``marked`` (as many as it holds of each) flagged."""
    left = Counter(marked)
    shown = []
    for code in codes:
        hit = left[code] > 0
        if hit:
            left[code] -= 1
        shown.append({"code": code, "marked": hit})
    return shown


def turn_view(turn: JSON, unit: str) -> JSON:
    best = turn["best"]
    missed = turn["missed"]
    return {
        "step": turn["step"],
        "turn_number": turn["turn_number"],
        "rack": pieces(turn["position"]["rack"], best["placed"]),
        "table": turn["position"]["table"],
        "discards": turn["position"]["discards"],
        "played": turn["played"],
        "played_actions": turn["played_actions"],
        "played_text": pieces_text(turn["played"]["pieces"], unit),
        "best_actions": best["actions"],
        "best_text": pieces_text(best["measure"]["pieces"], unit),
        "best_note": best_note(best),
        "flag": turn["flag"],
        "flag_text": flag_text(
            turn["flag"], missed["pieces"], best["params"].get("points", 0), unit
        ),
    }


def own_turns(data: JSON, seat: int | None) -> list[JSON]:
    """The viewer's own turns; none for a spectator."""
    if seat is None:
        return []
    return [turn_view(t, data["unit"]) for t in data["turns"] if t["seat"] == seat]


def turn_at(data: JSON, seat: int | None, step: int) -> JSON | None:
    """The viewer's turn judged from the position after ``step`` moves, if there is one."""
    for turn in own_turns(data, seat):
        if turn["step"] == step:
            return turn
    return None


def summary_rows(data: JSON, names: Sequence[str], hints: Mapping[int, int]) -> list[JSON]:
    rows = []
    for row in data["summary"]:
        seat = row["seat"]
        rows.append(
            {
                "name": names[seat] if seat < len(names) else str(seat + 1),
                "accuracy": row["accuracy"],
                "laid": pieces_text(row["laid"]["pieces"], data["unit"]),
                "best": pieces_text(row["best"]["pieces"], data["unit"]),
                "missed_points": row["missed_points"],
                "turns": row["turns"],
                "flagged": row["flagged"],
                "inexact": row["inexact"],
                "hints": hints.get(seat, 0),
            }
        )
    return rows
