"""The tile rummy's presentation: what one seat (or a spectator) sees of a game, as template
context, and the adapter the site dispatches to (``RUMMIKUB_PRESENTATION``).

The context is made from the engine's ``player_view`` and, for the seat whose turn it is, its
own draft (``draft``).  Another seat's rack or draft never enters it.  After each
play the other seats see what changed: the ``played`` event names the tiles placed and the
table after, and the table before is the previous ``played`` event's (or empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from games.engine.core.errors import IllegalAction, InvalidAction
from games.engine.rummikub import GAME
from games.engine.rummikub.rules import Rules
from games.engine.rummikub.state import State
from games.engine.tiles import COLOUR_NAMES
from games.models import Action, Game, Seat
from games.presenters import turn_marks
from games.presenters.base import (
    Presentation,
    form_problem,
    game_urls,
    recent_actions,
    series_context,
)
from games.presenters.examples import tile_examples
from games.presenters.log_entries import log_entries
from games.presenters.racks import arrange_rack, saved_order
from games.presenters.seat_names import seat_place, shown_names
from games.presenters.tile_words import colour_word
from games.presenters.turn_marks import same_turn
from remi_site.cached_reverse import cached_reverse

from . import draft as drafts
from . import forms as rummikub_forms
from . import text as rummikub_text


@dataclass(frozen=True, slots=True)
class TileView:
    """A tile as the templates draw it: number and letter always show, so colour is never
    the only way to tell tiles apart."""

    code: str
    colour: str  # a CSS class: red, yellow, blue, black, or joker
    letter: str
    number: str
    stands: str = ""  # for a joker in a meld, the tile it stands for

    @property
    def is_joker(self) -> bool:
        return self.code == "J"

    @property
    def label(self) -> str:
        if self.is_joker:
            if self.stands:
                return _("joker as %(tile)s") % {"tile": tile_view(self.stands).label}
            return _("joker")
        return f"{colour_word(self.letter)} {self.number}"


@cache
def tile_view(code: str, stands: str = "") -> TileView:
    code = drafts.plain(code)
    if code == "J":
        return TileView("J", "joker", "J", "", "" if stands in ("", "J") else stands)
    return TileView(code, COLOUR_NAMES[code[0]], code[0], code[1:])


def _tiles(codes: Sequence[str]) -> list[TileView]:
    return [tile_view(c) for c in codes]


# --- What changed in the last play ----------------------------------------------------------


def _last_plays(actions: Sequence[Action]) -> tuple[dict[str, Any] | None, list[str] | None]:
    """The newest ``played`` event's params, and the table before it (the play before's
    table; empty when the loaded log starts at the game's start; None when unknown)."""
    plays = [
        e.get("params") or {}
        for action in actions
        for e in action.events or ()
        if e.get("code") == "played"
    ]
    if not plays:
        return None, None
    if len(plays) > 1:
        return plays[-1], list(plays[-2].get("table", ()))
    starts_at_the_deal = bool(actions) and actions[0].version == 1
    return plays[-1], [] if starts_at_the_deal else None


def _played(action: Action) -> Counter[str]:
    """The tiles ``action`` put on the table (a play never takes one off it)."""
    return Counter(
        drafts.plain(code)
        for e in action.events or ()
        if e.get("code") == "played"
        for code in (e.get("params") or {}).get("tiles", ())
    )


def _table_rows(
    view: dict[str, Any], actions: Sequence[Action], run: Sequence[Action]
) -> list[dict[str, Any]]:
    """The table's melds, with the tiles the last play placed (``placed``, every viewer's
    "just played") and those of the last seat's turn that the page rings (``last_turn``):
    of each face, the last ones in the table's order, as the page's script counts them."""
    last, before = _last_plays(actions)
    fresh = last is not None and list(last.get("table", ())) == [
        m["notation"] for m in view["table"]
    ]
    faces = [drafts.plain(code) for meld in view["table"] for code in meld["tiles"]]
    sizes = [len(meld["tiles"]) for meld in view["table"]]
    placed_at = turn_marks.split_positions(
        turn_marks.ringed(faces, [Counter(last.get("tiles", ()))] if fresh and last else []),
        sizes,
    )
    ringed_at = turn_marks.split_positions(
        turn_marks.ringed(faces, [_played(action) for action in reversed(run)]), sizes
    )
    earlier = Counter(before or ())
    rows = []
    for index, meld in enumerate(view["table"]):
        tiles: list[dict[str, Any]] = []
        for position, (code, stands) in enumerate(zip(meld["tiles"], meld["as"], strict=True)):
            tiles.append(
                {
                    "t": tile_view(code, stands),
                    "placed": position in placed_at[index],
                    "last_turn": position in ringed_at[index],
                }
            )
        changed = fresh and before is not None and earlier[meld["notation"]] == 0
        if fresh and before is not None and not changed:
            earlier[meld["notation"]] -= 1
        rows.append(
            {
                "index": index,
                "kind": meld["kind"],
                "points": meld["points"],
                "tiles": tiles,
                "changed": changed,
                "label": _("Meld %(number)d, %(kind)s: %(tiles)s")
                % {
                    "number": index + 1,
                    "kind": _("run") if meld["kind"] == "run" else _("set"),
                    "tiles": ", ".join(t["t"].label for t in tiles),
                },
            }
        )
    return rows


# --- The context ----------------------------------------------------------------------------


def _draft_context(
    game: Game,
    state: State,
    seat: int,
    saved: object,
    names: Sequence[str],
    table: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The drafting seat's draft, judged.  Until the player changes it, it is the table as
    the last play left it, with the same marks of what that play changed."""
    found = drafts.stored(saved, game.pk, game.version)
    if found is None:
        melds, rack = drafts.turn_start(state, seat)
        rack = arrange_rack(rack, saved_order(saved, game.pk))
    else:
        melds, rack = found
    judged = drafts.judged(state, seat, melds, rack, names)
    rows = []
    for m in judged.melds:
        # An unchanged draft lists the table's melds in the table's order, tile for tile.
        same = table[m["index"]] if not judged.changed and m["index"] < len(table) else None
        tiles = []
        for position, (code, stands) in enumerate(zip(m["shown"], m["stands"], strict=True)):
            view = tile_view(code, stands)
            marks = same["tiles"][position] if same and position < len(same["tiles"]) else {}
            alike = marks and marks["t"].code == view.code
            tiles.append(
                {
                    "t": view,
                    "placed": bool(alike and marks["placed"]),
                    "last_turn": bool(alike and marks["last_turn"]),
                }
            )
        rows.append(
            {
                **m,
                "tiles": tiles,
                "changed": bool(same and same["changed"]),
                "label": _("Meld %(number)d") % {"number": m["index"] + 1},
            }
        )
    return {
        "melds": rows,
        "rack": _tiles(judged.rack),
        "changed": judged.changed,
        "faults": judged.faults,
        "problem": judged.problem,
        "first_melds": judged.first_melds,
        "needed": judged.needed,
        "ready": judged.ready,
    }


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
    if state is None:
        state = GAME.load(game.state)
    view = GAME.player_view(state, seat)
    if actions is None:
        actions = recent_actions(game)
    names: list[str] = shown_names(view["names"])
    over = view["result"] is not None
    my_turn = seat is not None and not over and view["turn"] == seat and not replay
    players = [
        {
            "seat": i,
            "name": name,
            "is_you": i == seat,
            "place": seat_place(i, seat, len(names)),
            "is_turn": not over and i == view["turn"],
            "rack_count": view["rack_counts"][i],
            "melded": view["melded"][i],
            "total": None,
        }
        for i, name in enumerate(names)
    ]
    series = series_context(GAME, game, over) if not replay else None
    if series is not None:
        for player, total in zip(players, series["totals"], strict=False):
            player["total"] = total["total"]

    saved = next((s.rack_order for s in seats if s.position == seat), None)
    # What the last seat to act put down is ringed for every viewer as the page's script
    # rings it live (which leaves a seat's own turn unringed); not in a replay.
    run = [] if replay else same_turn(actions)
    table = _table_rows(view, actions, run)
    draft = None
    rack = None
    if seat is not None and view["rack"] is not None and not over:
        if my_turn and not replay:  # a replay shows the rack as it was, never a draft
            draft = _draft_context(game, state, seat, saved, names, table)
            rack = draft["rack"]
        else:
            rack = _tiles(arrange_rack(view["rack"], saved_order(saved, game.pk)))

    urls = game_urls(game)
    urls["draft"] = cached_reverse("games:game_draft", game.pk)
    return {
        "game_id": game.pk,
        "table_id": game.table_id,
        "version": game.version if not replay else None,
        "seat": seat,
        "is_player": seat is not None,
        "names": names,
        "over": over,
        "turn": view["turn"],
        "turn_name": names[view["turn"]] if 0 <= view["turn"] < len(names) else "",
        "my_turn": my_turn,
        "melded": seat is not None and view["melded"][seat],
        "deadline": None if (over or replay) else game.deadline,
        "players": players,
        "table": table,
        "last_turn_seat": run[0].seat if run else None,
        "draft": draft,
        "rack": rack,
        "stock_count": view["stock_count"],
        "opening": _opening(view, names),
        "can": set(view["can"]),
        "log": log_entries(actions, names, seat, rummikub_text.event_text),
        "result": _result(view, names) if over else None,
        "series": series,
        "error": error,
        "notice": notice,
        "replay": replay,
        "urls": urls,
    }


def _opening(view: dict[str, Any], names: list[str]) -> list[str]:
    """Who drew what to decide the first player (public), round by round."""
    lines = []
    for draws in view["opening_draws"]:
        parts = [f"{names[i]}: {code}" for i, code in enumerate(draws) if code is not None]
        lines.append(", ".join(parts))
    return lines


def _result(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    result = view["result"]
    final = view["final_racks"] or [[] for _ in names]
    rows = [
        {
            "seat": i,
            "name": name,
            "winner": i == result["winner"],
            "rack": _tiles(final[i]),
            "rack_total": result["rack_totals"][i],
            "total": result["scores"][i],
        }
        for i, name in enumerate(names)
    ]
    return {
        "winner": names[result["winner"]] if result["winner"] is not None else None,
        "text": rummikub_text.game_over_text(result, names),
        "rows": rows,
    }


class RummikubPresentation(Presentation):
    key = GAME.key
    label = gettext_lazy("Tile rummy (Rummikub style)")
    preset_labels: ClassVar[Mapping[str, StrOrPromise]] = {
        "rummikub": gettext_lazy("Tile rummy (lenient jokers, first melds 30)"),
        "easy-rummy": gettext_lazy("Easy Rummy (lenient jokers)"),
        "pup-rummy": gettext_lazy("Pup Rummy (lenient jokers)"),
        "dutch-rummy": gettext_lazy("Dutch Rummy (a joker is freed by its tile from your rack)"),
        "rrrummy": gettext_lazy("RRRummy (freed from your rack; melds with a joker are locked)"),
        "tiles-50": gettext_lazy("Tiles 50 (first melds 50, every joker restriction)"),
        "rummikub-timer": gettext_lazy("Tile rummy with a two-minute timer"),
    }
    # The rules page's example melds, in the move notation.
    rules_examples: ClassVar[Mapping[str, str]] = {
        "run": "B3 B4 B5 B6",
        "set": "R11 Y11 K11",
        "joker_set": "R7 B7 J",
        "first_meld": "K10 K11 K12",
        "before": "Y4 Y5 Y6 Y7",
        "after_run": "Y4 Y5 Y6",
        "after_set": "Y7 R7 B7",
    }
    template = "games/rummikub/game.html"
    board_parts = ("players", "table")
    page_class = "rummikub"
    rule_options_template = "games/rummikub/rule_options.html"
    public_parts = frozenset({"arranging", "players", "status"})
    script = "js/rummikub.js"
    action_form = rummikub_forms.ActionForm
    rule_fields = rummikub_forms.RULE_FIELDS
    drafts = True

    def rules_context(self) -> dict[str, Any]:
        return {"ex": tile_examples(self.rules_examples)}

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
        return rummikub_forms.notation(data)

    def refusal_text(self, refusal: Exception, game: Game) -> str:
        if isinstance(refusal, IllegalAction):
            names = shown_names(GAME.load(game.state).seats)
            return rummikub_text.refusal_text(refusal.code, getattr(refusal, "params", {}), names)
        if isinstance(refusal, InvalidAction):
            worded = rummikub_text.NOTATION_SLIPS.get(refusal.code)
            if worded is not None:
                return worded(getattr(refusal, "params", {}))
        return str(refusal)

    def rack_order(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        form = rummikub_forms.RackForm(data)
        if not form.is_valid():
            raise ValueError(form_problem(form))
        order: list[str] = form.cleaned_data["order"]
        held = GAME.player_view(GAME.load(game.state), seat)["rack"] or []
        if Counter(order) != Counter(held):
            raise ValueError(_("That order is not the tiles on your rack."))
        return drafts.to_save(game.pk, game.version, None, order)

    def draft(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        state: State = GAME.load(game.state)
        if state.over or state.turn != seat:
            raise ValueError(_("You can arrange the table on your turn only."))
        form = rummikub_forms.DraftForm(data)
        if not form.is_valid():
            raise ValueError(form_problem(form))
        if form.cleaned_data["reset"]:
            _melds, rack = drafts.turn_start(state, seat)
            return drafts.to_save(game.pk, game.version, None, rack)
        melds: list[list[str]] = form.cleaned_data["table"]
        rack = form.cleaned_data["rack"]
        drafts.check_tiles(state, seat, melds, rack)
        return drafts.to_save(game.pk, game.version, melds, rack)

    def replay_context(self, final_state: State) -> dict[str, Any]:
        view = GAME.player_view(final_state, None)
        return {
            "final_racks": [
                {"name": name, "rack": _tiles(rack)}
                for name, rack in zip(
                    shown_names(view["names"]), view["final_racks"] or [], strict=True
                )
            ]
        }

    def situation(self, phase: str, my_turn: bool) -> str | None:
        return None

    def rule_rows(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        return rummikub_forms.rule_rows(rules)

    def rule_notes(self, preset: str, rules: Rules) -> tuple[str, ...]:
        return rummikub_forms.rule_notes(preset, rules)

    def series_text(self, rules: Rules) -> str:
        return rummikub_forms.series_text(rules)

    def form_fields(self) -> dict[str, forms.Field]:
        return rummikub_forms.rule_form_fields()

    def rule_options(self, rules: Any) -> dict[str, Any]:
        return {name: getattr(rules, name) for name in self.rule_fields}


RUMMIKUB_PRESENTATION = RummikubPresentation()

# What games.plugins reads (settings.REMI_GAMES): this game's engine and presentation.
PRESENTATION = RUMMIKUB_PRESENTATION
