"""Pocket Rummy's presentation: its context, its move form, its words — built only from what
``games.presenters`` shares with every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from games.engine.core.errors import InvalidAction, Refusal
from games.models import Action, Game, Seat
from games.presenters.base import Presentation, game_urls, recent_actions, series_context
from games.presenters.log_entries import log_entries
from games.presenters.seat_names import seat_place, shown_names
from remi_site.form_fields import WholeNumberField

from .engine import DRAW, GAME, OVER, all_tiles, value

TILE_CHOICES = [(tile, tile) for tile in all_tiles()]


class ActionForm(forms.Form):
    version = WholeNumberField(min_value=0)
    verb = forms.ChoiceField(choices=[(v, v) for v in ("draw", "discard", "notation")])
    tile = forms.ChoiceField(choices=TILE_CHOICES, required=False)
    notation = forms.CharField(max_length=40, required=False)


@dataclass(frozen=True, slots=True)
class TileView:
    """A tile as the templates draw it (hashable: the ``face`` tag keeps each face once)."""

    code: str
    number: int
    colour: str
    label: str


def tile_view(tile: str) -> TileView:
    colour = _("red") if tile[0] == "R" else _("blue")
    return TileView(tile, value(tile), tile[0], f"{colour} {value(tile)}")


def event_text(event: Mapping[str, Any], names: Sequence[str], viewer: int | None) -> str:
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else _("someone")
    params = event.get("params") or {}
    code = event.get("code")
    if code == "draw":
        secret = event.get("secret") if viewer is not None and viewer == seat else None
        if secret:
            return _("%(who)s drew %(tile)s") % {"who": who, "tile": secret["tile"]}
        return _("%(who)s drew a tile") % {"who": who}
    if code == "discard":
        return _("%(who)s discarded %(tile)s") % {"who": who, "tile": params.get("tile")}
    if code == "out":
        return _("%(who)s went out") % {"who": who}
    return _("The stock ran out")


def game_context(
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
    if state is None:
        state = GAME.load(game.state)
    view = GAME.player_view(state, seat)
    if actions is None:
        actions = recent_actions(game)
    names = shown_names(view["names"])
    over = view["phase"] == OVER
    my_turn = seat is not None and not over and view["turn"] == seat and not replay
    return {
        "game_id": game.pk,
        "game_number": game.number + 1,
        "version": game.version if not replay else None,
        "seat": seat,
        "is_player": seat is not None,
        "over": over,
        "turn_name": names[view["turn"]],
        "my_turn": my_turn,
        "drawing": my_turn and view["phase"] == DRAW,
        "turn_drawing": view["phase"] == DRAW,
        "players": [
            {
                "seat": i,
                "name": name,
                "is_you": i == seat,
                "place": seat_place(i, seat, len(names)),
                "count": view["hand_counts"][i],
            }
            for i, name in enumerate(names)
        ],
        "hand": [tile_view(t) for t in view["hand"]] if view["hand"] is not None else None,
        "stock_count": view["stock_count"],
        "discards": [tile_view(t) for t in view["discards"]],
        "log": log_entries(actions, names, seat, event_text),
        "result": _result(view, names) if over else None,
        "series": series_context(GAME, game, over) if not replay else None,
        "deadline": None if (over or replay) else game.deadline,
        "error": error,
        "notice": notice,
        "replay": replay,
        "urls": game_urls(game),
    }


def _result(view: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    winner = view["winner"]
    text = (
        _("Nobody went out.") if winner is None else _("%(who)s went out!") % {"who": names[winner]}
    )
    rows = [
        {
            "name": name,
            "points": view["scores"][i],
            "hand": [tile_view(t) for t in view["final_hands"][i]],
        }
        for i, name in enumerate(names)
    ]
    return {"text": text, "rows": rows}


class PocketRummyPresentation(Presentation):
    key = GAME.key
    label = gettext_lazy("Pocket Rummy")
    preset_labels: ClassVar[Mapping[str, StrOrPromise]] = {
        "pocket-rummy": gettext_lazy("Pocket Rummy (three tiles)")
    }
    template = "games/pocket-rummy/game.html"
    rule_options_template = "games/pocket-rummy/rule_options.html"
    board_parts = ("players", "piles")
    page_class = "pocket-rummy"
    public_parts = frozenset({"piles", "status"})
    script = "js/pocket-rummy.js"  # in static/ beside the plug-in
    action_form = ActionForm
    rule_fields = ()

    def context(
        self, game: Game, seats: Sequence[Seat], seat: int | None, **kwargs: Any
    ) -> dict[str, Any]:
        return game_context(game, seats, seat, **kwargs)

    def notation(self, data: Mapping[str, Any], game: Game) -> str:
        verb = data["verb"]
        if verb == "draw":
            return "draw"
        if verb == "discard":
            if not data.get("tile"):
                raise InvalidAction("form.pick_a_tile")
            return f"discard {data['tile']}"
        return str(data.get("notation") or "")

    def refusal_text(self, refusal: Exception, game: Game) -> str:
        if isinstance(refusal, Refusal):
            return _("That move is not allowed (%(code)s).") % {"code": refusal.code}
        return str(refusal)

    def rack_order(self, data: Mapping[str, Any], game: Game, seat: int) -> dict[str, Any]:
        raise ValueError(_("Tiles in hand are kept in order."))

    def replay_context(self, final_state: Any) -> dict[str, Any]:
        view = GAME.player_view(final_state, None)
        names = shown_names(view["names"])
        hands = view["final_hands"] or [[] for _ in names]
        return {
            "final_hands": [
                {"name": n, "hand": [tile_view(t) for t in h]}
                for n, h in zip(names, hands, strict=True)
            ]
        }

    def situation(self, phase: str, my_turn: bool) -> str | None:
        return None

    def rule_rows(self, rules: Any) -> tuple[tuple[str, str], ...]:
        return ((_("Tiles in hand"), str(rules.hand_size)),)

    def rule_notes(self, preset: str, rules: Any) -> tuple[str, ...]:
        return ()

    def series_text(self, rules: Any) -> str:
        return _("One game")

    def form_fields(self) -> dict[str, forms.Field]:
        return {}

    def rule_options(self, rules: Any) -> dict[str, Any]:
        return {}


PRESENTATION = PocketRummyPresentation()
