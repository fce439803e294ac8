"""Remi Etalat's presentation: what one seat (or a spectator) sees of a Remi game, as
template context, and the adapter the site dispatches to (``REMI_PRESENTATION``).

The context is made from the engine's ``player_view`` only: another seat's rack, the wall and
the seed never enter it, so no template can leak them by mistake.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from games.engine.core.errors import Refusal
from games.engine.remi import GAME
from games.engine.remi.hints import exposed_goes_out, first_meld_points
from games.engine.remi.rules import Rules
from games.engine.remi.state import DRAW, OPEN, OVER, PLAY, PRELUDE, State
from games.engine.tiles import COLOUR_NAMES
from games.models import Action, Game, Seat
from games.presenters import fragment_reuse, turn_marks
from games.presenters.base import (
    Presentation,
    game_urls,
    once_per_game,
    recent_actions,
    series_context,
)
from games.presenters.log_entries import log_entries
from games.presenters.racks import arrange_rack, saved_order
from games.presenters.seat_names import seat_place, shown_names
from games.presenters.tile_words import colour_word
from games.presenters.turn_marks import same_turn
from remi_site.cached_reverse import cached_reverse

from . import forms as remi_forms
from . import recent
from . import refusals as remi_refusals
from . import rules as remi_rules
from .recent import melds_just_played, taken_this_turn
from .text import event_line

PHASE_LABELS: dict[str, str] = {
    PRELUDE: gettext_noop("Doublas and declarations"),
    OPEN: gettext_noop("Opening discard"),
    DRAW: gettext_noop("Draw or take"),
    PLAY: gettext_noop("Meld and discard"),
    OVER: gettext_noop("Game over"),
}

# Buttons in the order they appear, with their keyboard shortcut.  The prelude has its own
# set; ``declare`` is possible in both until the player's first action.
PRELUDE_BUTTONS = (
    ("doubla", gettext_noop("Doubla"), "o"),
    ("exchange", gettext_noop("Exchange"), "h"),
    ("ready", gettext_noop("Ready"), "r"),
    ("declare", gettext_noop("Declare twin"), "c"),
)
PLAY_BUTTONS = (
    ("draw", gettext_noop("Draw"), "d"),
    ("take", gettext_noop("Take"), "t"),
    ("pick", gettext_noop("Pick"), "p"),
    ("exposed", gettext_noop("Take exposed"), "e"),
    ("meld", gettext_noop("Meld"), "m"),
    ("add", gettext_noop("Add"), "a"),
    ("swap", gettext_noop("Swap Joly"), "s"),
    ("discard", gettext_noop("Discard"), "x"),
    ("declare", gettext_noop("Declare twin"), "c"),
    ("undo", gettext_noop("Undo"), "u"),
)

BREAKDOWN_LABELS = {
    "melded": gettext_noop("Melded"),
    "rack": gettext_noop("Left on rack"),
    "win": gettext_noop("Going out"),
    "all_at_once": gettext_noop("All at once"),
    "never_melded": gettext_noop("Never melded"),
    "twin": gettext_noop("Twin of the exposed tile"),
    "doubled": gettext_noop("Doubled (went out on a Joly)"),
}


@fragment_reuse.immutable
@dataclass(frozen=True, slots=True)
class TileView:
    """A tile as the templates draw it: the letter and number always show, so colour is
    never the only way to tell tiles apart."""

    code: str
    colour: str  # a CSS-friendly colour name, or "joly"
    letter: str
    number: str
    label: str  # for screen readers: "red 12", "Joly", "Joly as blue 4"
    stands: str = ""  # for a Joly in a meld, the tile it stands for
    fresh: bool = False  # on the viewer's rack: drawn or taken this turn

    @property
    def is_joly(self) -> bool:
        return self.code == "J"


def tile_view(code: str, stands_for: str | None = None) -> TileView:
    """The label is in the language being rendered: views are kept per language, never
    shared between two (a page draws a hundred tiles, each named for screen readers)."""
    return _tile_view(code, stands_for, get_language())


@lru_cache(maxsize=1024)
def _tile_view(code: str, stands_for: str | None, language: str | None) -> TileView:
    # ``language`` is the active one, which the labels below are in: it only keys the cache.
    if code == "J":
        if stands_for and stands_for != "J":
            label = _("Joly as %(tile)s") % {"tile": tile_view(stands_for).label}
            return TileView("J", "joly", "J", "", label, stands_for)
        return TileView("J", "joly", "J", "", "Joly")
    colour = COLOUR_NAMES[code[0]]
    return TileView(code, colour, code[0], code[1:], f"{colour_word(code[0])} {code[1:]}")


def tiles_view(codes: Iterable[str]) -> list[TileView]:
    language = get_language()
    return [_tile_view(code, None, language) for code in codes]


def order_to_save(tiles: list[str], game_id: int) -> dict[str, Any]:
    return {"game": game_id, "tiles": tiles}


# --- The context ----------------------------------------------------------------------------


def game_context(
    game: Game,
    seats: Sequence[Seat],
    seat: int | None,
    *,
    actions: Sequence[Action] | None = None,
    state: State | None = None,
    error: str = "",
    notice: str = "",
    replay: bool = False,
) -> dict[str, Any]:
    """Everything the game templates need for ``seat`` (None: a spectator).

    ``actions`` are the log's actions, oldest first (loaded when omitted).  ``state`` replaces
    the game's current state — the replay shows earlier positions of a finished game with it.
    """
    if state is None:
        state = GAME.load(game.state)
    view = GAME.player_view(state, seat)
    # Who acts is the engine's answer (empty once the game is over; in the prelude, every
    # seat not yet ready).
    to_act = GAME.to_act(state)
    if actions is None:
        actions = recent_actions(game)
    names: list[str] = shown_names(view["names"])
    over = view["phase"] == OVER
    can = set(view["can"])
    warning = view["rules"].get("low_tile_warning", 3)
    offers = view["offers"]

    players = [
        {
            "seat": i,
            "name": name,
            "is_you": i == seat,
            "place": seat_place(i, seat, len(names)),
            "is_turn": view["phase"] != PRELUDE and i in to_act,
            "is_dealer": i == view["dealer"],
            "rack_count": view["rack_counts"][i],
            "melded": view["has_melded"][i],
            "few_tiles": view["phase"] != PRELUDE and view["rack_counts"][i] <= warning,
            "ready": view["ready"][i],
            "offer": offers[i],
            "declared": view["declared"][i],
            "total": None,  # the series total, filled in below when there is a series
        }
        for i, name in enumerate(names)
    ]

    just_played = melds_just_played(actions, seat, view["melds"])
    # The melds and the row read the same for every viewer: made once per version (a replay
    # shows other positions of the same game object, so it makes its own).
    alike = _made if replay else functools.partial(once_per_game, game)
    laid = alike(("melds",), lambda: _melds(view["melds"]))
    # What the last seat to act put down, ringed as the page's script rings it live: the
    # same for every viewer (the script leaves a seat's own turn unringed).  Not in a replay.
    run = [] if replay else same_turn(actions)
    ring = alike(("ring",), lambda: _ring(view, run))
    meld_groups = []
    for owner, name in enumerate(names):
        melds = [
            {**m, "recent": m["id"] in just_played, "last_turn": ring.melds.get(m["id"], ())}
            for m in laid
            if m["by"] == owner
        ]
        if melds:
            meld_groups.append(
                {"seat": owner, "name": name, "is_you": owner == seat, "melds": melds}
            )
    row = alike(("row",), lambda: _row(view, names, ring.row))

    rack = None
    if seat is not None and view["rack"] is not None and not over:
        saved = next((s.rack_order for s in seats if s.position == seat), None)
        rack = tiles_view(arrange_rack(view["rack"], saved_order(saved, game.pk)))
        rack = _mark_fresh(rack, taken_this_turn(actions, seat) if not replay else [])

    # Taking the exposed tile asks first unless the engine sees the player going out with it.
    asks = "exposed" in can and not exposed_goes_out(view)
    buttons = _buttons(view["phase"] == PRELUDE, frozenset(can), asks, get_language())
    exchange_with = [
        {"seat": i, "name": names[i]}
        for i, offer in enumerate(offers)
        if offer is not None and i != seat
    ]

    series = series_context(GAME, game, over) if not replay else None
    if series is not None:
        for player, total in zip(players, series["totals"], strict=False):
            player["total"] = total["total"]

    turn_name = names[view["turn"]] if 0 <= view["turn"] < len(names) else ""
    waiting_for = [names[i] for i in sorted(to_act)]

    phase = view["phase"]
    assert isinstance(phase, str)  # the engine names every phase
    return {
        "game_id": game.pk,
        "table_id": game.table_id,
        "version": game.version if not replay else None,
        "seat": seat,
        "is_player": seat is not None,
        "names": names,
        "phase": phase,
        "phase_label": _(PHASE_LABELS.get(phase, phase)),
        "over": over,
        "turn": view["turn"],
        "turn_name": turn_name,
        "my_turn": seat is not None and seat in to_act,
        "waiting_for": waiting_for,
        "deadline": None if (over or replay) else game.deadline,
        "players": players,
        "rack": rack,
        "meld_groups": meld_groups,
        "meld_count": len(view["melds"]),
        "row": row,
        "wall_count": view["wall_count"],
        "exposed": tile_view(view["exposed"]) if view["exposed"] else None,
        "exposed_last_turn": len(view["discards"]) in ring.row,
        "last_turn_seat": ring.by,
        "exposed_tile": tile_view(view["exposed_tile"]) if view["exposed_tile"] else None,
        "can": can,
        "buttons": buttons,
        "exchange_with": exchange_with,
        # The doubla this seat offers, with its tile: said in its own controls, never in the
        # players' chips, which every viewer is sent alike.
        "my_offer": offers[seat] if seat is not None else None,
        "pending": view["pending"],
        "log": log_entries(actions, names, seat, event_line),
        "result": _result(view, names) if over else None,
        "series": series,
        "error": error,
        "notice": notice,
        "replay": replay,
        "urls": game_urls(game),
        "help_keys": _help_keys(buttons),
        # A player yet to make their first melds sees what the selection is worth.
        "meld_total_url": (
            cached_reverse("games:game_meld_total", game.pk)
            if seat is not None and not over and not replay and not view["has_melded"][seat]
            else None
        ),
        "first_meld_minimum": state.rules.first_meld_minimum,
        # Why a row tile the player taps gives no Pick (shown by remi.js when one is tapped).
        "row_hint": _row_hint(view, seat, can) if seat is not None and not over else "",
    }


def _row_hint(view: dict[str, Any], seat: int, can: set[str]) -> str:
    if "pick" in can:
        return ""
    if view["phase"] != DRAW or view["turn"] != seat:
        return _(
            "A tile is picked from the discard row at the start of your turn, instead of drawing."
        )
    if not view["has_melded"][seat]:
        return _("You can take from the discard row only after your first meld.")
    return _(
        "No pick now: the row needs a tile besides its first, and your rack more than two tiles."
    )


def _made(key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    return make()


def _melds(melds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    laid = []
    for m in melds:
        tiles = [tile_view(code, as_) for code, as_ in zip(m["tiles"], m["as"], strict=True)]
        laid.append(
            {
                "id": m["id"],
                "by": m["by"],
                "kind": m["kind"],
                "tiles": tiles,
                "label": _("Meld %(number)s, %(kind)s: %(tiles)s")
                % {
                    "number": m["id"],
                    "kind": _("run") if m["kind"] == "run" else _("set"),
                    "tiles": ", ".join(t.label for t in tiles),
                },
            }
        )
    return laid


@dataclass(frozen=True)
class Ring:
    """The pieces the last turn put down: positions in the row's part (its tiles, then the
    exposed tile), positions within each meld by id, and the seat whose turn it was."""

    by: int | None = None
    row: frozenset[int] = frozenset()
    melds: Mapping[int, frozenset[int]] = field(default_factory=dict)


def _ring(view: dict[str, Any], run: Sequence[Action]) -> Ring:
    if not run:
        return Ring()
    # The table's pieces in page order: grouped by who laid each meld, seat by seat.
    order = sorted(view["melds"], key=lambda m: m["by"])
    faces = {
        m["id"]: [recent.meld_face(c, a) for c, a in zip(m["tiles"], m["as"], strict=True)]
        for m in order
    }
    steps = recent.turn_changes(run, faces)
    on_table = turn_marks.ringed_in(
        recent.MELDS, [face for m in order for face in faces[m["id"]]], steps
    )
    within = turn_marks.split_positions(on_table, [len(faces[m["id"]]) for m in order])
    row_faces = list(view["discards"])
    if view["exposed"]:
        row_faces.append(recent.EXPOSED + view["exposed"])
    return Ring(
        run[0].seat,
        turn_marks.ringed_in(recent.ROW, row_faces, steps),
        {m["id"]: marks for m, marks in zip(order, within, strict=True) if marks},
    )


def _row(
    view: dict[str, Any], names: list[str], ringed: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    discards = view["discards"]
    tiles = tiles_view(discards)
    row = []
    for i, (tile, by) in enumerate(zip(tiles, view["discarded_by"], strict=True)):
        first, last = i == 0, i > 0 and i == len(discards) - 1
        name = names[by] if 0 <= by < len(names) else ""
        row.append(
            {
                "index": i,
                "tile": tile,
                "first": first,
                "last": last,
                "last_turn": i in ringed,
                "by": name,
                "label": _row_label(i, tile, first=first, by=name, last=last),
            }
        )
    return row


def _row_label(index: int, tile: TileView, *, first: bool, by: str, last: bool) -> str:
    """A row tile's name for a screen reader, worded here once per version for every
    viewer: a translation tag per tile was a third of the row's render."""
    words = [f"{index}: {tile.label}"]
    if first:
        words.append(_("the first tile, never taken"))
    if by:
        words.append(_("from %(name)s") % {"name": by})
    if last:
        words.append(_("the last discard"))
    return ", ".join(words)


def _mark_fresh(rack: list[TileView], taken: list[str]) -> list[TileView]:
    """Mark the tiles taken this turn, one rack tile for each (a rack may hold two alike);
    the newest are at the rack's end, so marks are given from the end."""
    left = list(taken)
    marked = list(rack)
    for i in range(len(marked) - 1, -1, -1):
        if marked[i].code in left:
            left.remove(marked[i].code)
            marked[i] = replace(marked[i], fresh=True)
    return marked


@fragment_reuse.immutable
@dataclass(frozen=True, slots=True)
class Button:
    """A move's button: made once per phase, moves allowed and language, so that a seat's
    controls are keyed by the same few objects version after version."""

    verb: str
    label: str
    key: str
    enabled: bool
    secondary: bool = False
    confirm: str = ""


@lru_cache(maxsize=2048)
def _buttons(
    prelude: bool, can: frozenset[str], asks: bool, language: str | None
) -> tuple[Button, ...]:
    del language  # the cache key: the labels are in the active language
    made = []
    for verb, label, key in PRELUDE_BUTTONS if prelude else PLAY_BUTTONS:
        button = Button(verb, _(label), key, verb in can)
        if verb == "exposed":
            # Binding (the player must go out at once), yet beside Draw at the start of
            # every turn: it looks secondary, and asks first (``asks``).
            confirm = (
                _(
                    "Take the exposed tile? You must then meld all your other tiles and "
                    "discard the last one this turn, or put the exposed tile back."
                )
                if button.enabled and asks
                else ""
            )
            button = replace(button, secondary=True, confirm=confirm)
        made.append(button)
    return tuple(made)


@lru_cache(maxsize=2048)
def _help_keys(buttons: tuple[Button, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((b.key, b.label) for b in buttons)


def _in_order(parts: dict[str, int]) -> list[tuple[str, int]]:
    """The score parts in the order of BREAKDOWN_LABELS: PostgreSQL's jsonb does not keep the
    keys' order, and a page must not depend on the database (nor differ from the act answer,
    which renders the state before it was stored)."""
    order = list(BREAKDOWN_LABELS)
    return sorted(
        parts.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0])
    )


def _result(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    result = view["result"] or {}
    final_racks = view["final_racks"] or [[] for _ in names]
    winner = result.get("winner")
    rows = []
    for i, name in enumerate(names):
        parts = dict(result.get("breakdown", [{}] * len(names))[i])
        total = parts.pop("total", result.get("scores", [0] * len(names))[i])
        rows.append(
            {
                "seat": i,
                "name": name,
                "winner": i == winner,
                "rack": tiles_view(final_racks[i]),
                "parts": [(_(BREAKDOWN_LABELS.get(k, k)), v) for k, v in _in_order(parts)],
                "total": total,
            }
        )
    return {
        "winner": names[winner] if winner is not None else None,
        "reason": result.get("reason"),
        "joly_out": result.get("joly_out", False),
        "all_at_once": result.get("all_at_once", False),
        "rows": rows,
    }


class RemiPresentation(Presentation):
    key = GAME.key
    label = gettext_lazy("Remi Etalat")
    preset_labels = remi_rules.PRESET_LABELS
    template = "games/remi/game.html"
    board_parts = ("players", "row", "melds")
    rule_options_template = "games/remi/rule_options.html"
    public_parts = frozenset({"players", "row", "status"})
    script = "js/remi.js"
    action_form = remi_forms.ActionForm
    rule_fields = remi_forms.RULE_FIELDS

    def rules_context(self) -> dict[str, Any]:
        return remi_rules.rules_page()

    def meld_total(self, text: str, game: Game, seat: int) -> tuple[int, int] | None:
        state = GAME.load(game.state)
        if state.phase == OVER or state.melded_on[seat] is not None:
            return None
        return first_meld_points(text), state.rules.first_meld_minimum

    def context(
        self,
        game: Game,
        seats: Sequence[Seat],
        seat: int | None,
        *,
        actions: Sequence[Action] | None = None,
        state: Any = None,
        error: str = "",
        notice: str = "",
        replay: bool = False,
    ) -> dict[str, Any]:
        return game_context(
            game,
            seats,
            seat,
            actions=actions,
            state=state,
            error=error,
            notice=notice,
            replay=replay,
        )

    def notation(self, data: Mapping[str, Any], game: Game) -> str:
        return remi_forms.notation(data, game.state)

    def rack_order(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        form = remi_forms.RackForm(data)
        if not form.is_valid():
            raise ValueError(remi_forms.problem(form))
        order: list[str] = form.cleaned_data["order"]
        held = GAME.player_view(GAME.load(game.state), seat)["rack"] or []
        if Counter(order) != Counter(held):
            raise ValueError("That order is not the tiles on your rack.")
        return order_to_save(order, game.pk)

    def replay_context(self, final_state: State) -> dict[str, Any]:
        final_view = GAME.player_view(final_state, None)
        return {
            "final_racks": [
                {"name": name, "rack": tiles_view(rack)}
                for name, rack in zip(
                    shown_names(final_view["names"]), final_view["final_racks"], strict=True
                )
            ]
        }

    def situation(self, phase: str, my_turn: bool) -> str | None:
        if phase != PRELUDE:
            return None
        if my_turn:
            return _("Doublas before play: say when you are ready")
        return _("Doublas before play: waiting for the others")

    def rule_rows(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        return remi_rules.rule_rows(rules)

    def rule_notes(self, preset: str, rules: Rules) -> tuple[str, ...]:
        return remi_rules.rule_notes(preset, rules)

    def series_text(self, rules: Rules) -> str:
        return remi_rules.series_text(rules)

    def form_fields(self) -> dict[str, forms.Field]:
        return remi_forms.rule_form_fields()

    def rule_options(self, rules: Any) -> dict[str, Any]:
        return {name: getattr(rules, name) for name in self.rule_fields}

    def refusal_text(self, refusal: Exception, game: Game) -> str:
        if not isinstance(refusal, Refusal):
            return str(refusal)
        # A refusal names seats by number (whose turn it is): the sentence needs the names.
        return remi_refusals.message_for(refusal, shown_names(GAME.load(game.state).seats))


REMI_PRESENTATION = RemiPresentation()

# What games.plugins reads (settings.REMI_GAMES): this game's engine and presentation.
PRESENTATION = REMI_PRESENTATION
