"""Remi's rules said for people: the rows of a table card, the differences from its preset,
and the length of a series."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.remi.rules import NO_WINNER_RACK, PRESETS, REMI, UNMELDED_FLAT, Rules
from games.presenters.examples import tile_examples

PRESET_LABELS = {
    "remi": gettext_lazy("Remi Etalat (source rules)"),
    "remi-45": gettext_lazy("First meld 45"),
    "remi-open-discard": gettext_lazy("First meld may use the previous discard"),
    "remi-printed": gettext_lazy("Never melded: lose 100 + rack"),
    "remi-joly-double": gettext_lazy("Going out on a Joly doubles"),
}

# The rules page's example melds, in the move notation.
EXAMPLES = {
    "run": "R5 R6 R7",
    "set": "K9 Y9 B9",
    "joly_run": "B10 J=B11 B12 B13",
    "high_one": "Y12 Y13 Y1",
    "low_one": "Y1 Y2 Y3",
    "wrong_wrap": "Y13 Y1 Y2",
    "first_meld": "R10 R11 R12 R13",
    "pair": "B8 B8",
}


def rules_page() -> dict[str, object]:
    """The rules page's examples (Remi players call the joker Joly, as printed on the tiles)
    and the doubla's low and high labels as the source rules split them."""
    low = REMI.low_doubla()
    return {
        "ex": tile_examples(EXAMPLES, joly=True),
        "low_first": low[0],
        "low_last": low[-1],
        "high_first": low[-1] + 1,
    }


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _rebuilds(value: int | None) -> str:
    if value is None:
        return _("no limit")
    return str(value)


def _unmelded(rules: Rules) -> str:
    if rules.unmelded_penalty == UNMELDED_FLAT:
        return _("loses %(points)d") % {"points": rules.unmelded_flat}
    return _("loses %(points)d + the rack") % {"points": rules.unmelded_rack_base}


def _first_turn_swap(rules: Rules) -> str:
    if rules.first_meld_turn_swap:
        return _("from a meld just laid")
    return _("no")


def _no_winner(rules: Rules) -> str:
    if rules.no_winner_unmelded == NO_WINNER_RACK:
        return _("loses the rack")
    return _unmelded(rules)


def _idle_cap(value: int | None) -> str:
    if value is None:
        return _("none: only when no tile can be laid")
    return ngettext(
        "after %(count)d rebuild in a row with nothing laid",
        "after %(count)d rebuilds in a row with nothing laid",
        value,
    ) % {"count": value}


def rule_rows(rules: Rules) -> tuple[tuple[str, str], ...]:
    """Every option a table's owner can set, as (option, value) for a definition list."""
    return (
        (_("First meld minimum"), str(rules.first_meld_minimum)),
        (_("First meld may use the previous discard"), _yes_no(rules.first_meld_takes_discard)),
        (_("Doubla"), _yes_no(rules.doubla)),
        (_("More than one doubla"), _yes_no(rules.many_doublas)),
        (_("A doubla's label"), _doubla_split(rules)),
        (_("Freeing a Joly in the first meld's turn"), _first_turn_swap(rules)),
        (_("A 1 on the rack costs"), str(rules.rack_one_value)),
        (_("A player who never melded"), _unmelded(rules)),
        (_("A player who never melded, with no winner"), _no_winner(rules)),
        (_("Going out on a Joly doubles"), _yes_no(rules.joly_discard_doubles)),
        (_("Wall rebuilds"), _rebuilds(rules.max_rebuilds)),
        (_("Safety cap"), _idle_cap(rules.max_idle_rebuilds)),
        (_("Series"), series_text(rules)),
    )


def _doubla_split(rules: Rules) -> str:
    low = rules.low_doubla()
    return _("low %(first)d-%(last)d, the rest high") % {"first": low[0], "last": low[-1]}


def _note(rules: Rules, name: str) -> str:
    """One option, said briefly, for a rules summary."""
    value = getattr(rules, name)
    if name == "first_meld_minimum":
        return _("first meld %(points)d") % {"points": value}
    if name == "first_meld_takes_discard":
        return _("first meld may use the discard") if value else _("first meld from the rack")
    if name == "doubla":
        return _("doubla") if value else _("no doubla")
    if name == "rack_one_value":
        return _("a 1 on the rack costs %(points)d") % {"points": value}
    if name in ("unmelded_penalty", "unmelded_flat", "unmelded_rack_base"):
        return _("never melded: %(penalty)s") % {"penalty": _unmelded(rules)}
    if name == "joly_discard_doubles":
        return _("going out on a Joly doubles") if value else _("going out on a Joly is plain")
    if name == "doubla_split":
        return _("doubla labels: %(split)s") % {"split": _doubla_split(rules)}
    if name == "many_doublas":
        return _("several doublas") if value else _("one doubla each")
    if name == "first_meld_turn_swap":
        return (
            _("a Joly may be freed in the first meld's turn")
            if value
            else _("no Joly freed in the first meld's turn")
        )
    if name == "no_winner_unmelded":
        return _("no winner: never melded %(penalty)s") % {"penalty": _no_winner(rules)}
    if name == "max_idle_rebuilds":
        return _("safety cap: %(cap)s") % {"cap": _idle_cap(value)}
    if name == "max_rebuilds":
        if value is None:
            return _("unlimited wall rebuilds")
        return ngettext("%(count)d wall rebuild", "%(count)d wall rebuilds", value) % {
            "count": value
        }
    return f"{name} {value}"


# The series is always said on its own, so it is no "difference from the preset".
_NOT_NOTES = {"series_games", "target_score", "game"}


def rule_notes(preset: str, rules: Rules) -> tuple[str, ...]:
    """Where a table's rules differ from its preset, briefly (empty: the preset as it is)."""
    base = PRESETS.get(preset)
    if base is None:
        return ()
    changed = [
        name
        for name in Rules.__dataclass_fields__
        if name not in _NOT_NOTES and getattr(rules, name) != getattr(base, name)
    ]
    notes: list[str] = []
    for name in changed:
        note = _note(rules, name)
        if note not in notes:  # the three never-melded options say one thing
            notes.append(note)
    return tuple(notes)


def series_text(rules: Rules) -> str:
    games, target = rules.series_games, rules.target_score
    if games is not None and target is not None:
        return ngettext(
            "%(games)d game or %(target)d points",
            "%(games)d games or %(target)d points",
            games,
        ) % {"games": games, "target": target}
    if target is not None:
        return _("to %(target)d points") % {"target": target}
    return ngettext("%(games)d game", "%(games)d games", games or 1) % {"games": games or 1}
