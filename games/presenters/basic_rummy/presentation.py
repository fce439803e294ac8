"""Basic Rummy's presentation: what one seat (or a spectator) sees of a hand, as template
context, and the adapter the site dispatches to (``BASIC_RUMMY_PRESENTATION``).

Everything comes from the engine's ``player_view``: the seat's own hand, the public table and
discard pile, and counts of the other hands.  Cards are drawn by the templates from
:class:`~games.presenters.card_faces.CardView`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from games.engine.basic_rummy import GAME
from games.engine.basic_rummy.state import State
from games.models import Action, Game, Seat
from games.presenters.base import game_urls, recent_actions, series_context
from games.presenters.card_faces import card_view, cards, table_rows
from games.presenters.card_recent import last_turn, mark_table
from games.presenters.card_rummy import CardRummyPresentation
from games.presenters.log_entries import log_entries
from games.presenters.seat_names import seat_place, shown_names

from . import forms as rummy_forms
from . import text


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
    turn = last_turn(actions)
    over = view["result"] is not None
    my_turn = seat is not None and not over and view["turn"] == seat and not replay
    series = series_context(GAME, game, over) if not replay else None
    totals = [t["total"] for t in series["totals"]] if series else [None] * len(names)
    players = [
        {
            "seat": i,
            "name": name,
            "is_you": i == seat,
            "place": seat_place(i, seat, len(names)),
            "is_turn": not over and i == view["turn"],
            "is_dealer": i == view["dealer"],
            "card_count": view["hand_counts"][i],
            "melded": view["melded"][i],
            "total": totals[i] if i < len(totals) else None,
        }
        for i, name in enumerate(names)
    ]
    hand = cards(view["hand"]) if view["hand"] is not None and not over else None
    top = view["discard_top"]
    return {
        "game_id": game.pk,
        "game_number": game.number + 1,
        "table_id": game.table_id,
        "version": game.version if not replay else None,
        "seat": seat,
        "is_player": seat is not None,
        "names": names,
        "over": over,
        "turn": view["turn"],
        "turn_name": names[view["turn"]],
        "my_turn": my_turn,
        "drawing": my_turn and view["phase"] == "draw",
        # Whether the seat to play draws next, for every viewer: the status line swapped in
        # words the turn for that seat on everyone's page alike.
        "turn_drawing": view["phase"] == "draw",
        "players": players,
        "table": mark_table(table_rows(view), turn),
        # What the last turn brought is marked for every viewer (card_recent.py).
        "last_turn_seat": turn.seat,
        "last_discard": turn.discard is not None and turn.discard == top,
        "hand": hand,
        "taken": card_view(view["taken"]) if view["taken"] else None,
        "stock_count": view["stock_count"],
        "discard_top": card_view(top) if top else None,
        "discard_count": view["discard_count"],
        "spread": cards(view["discard"]) if view["discard"] is not None else None,
        "can": set(view["can"]),
        "deadline": None if (over or replay) else game.deadline,
        "log": log_entries(actions, names, seat, text.event_text),
        "result": _result(view, names) if over else None,
        "series": series,
        "error": error,
        "notice": notice,
        "replay": replay,
        "urls": game_urls(game),
    }


def _result(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    result = view["result"]
    final = view["final_hands"] or [[] for _ in names]
    rows = [
        {
            "seat": i,
            "name": name,
            "winner": i == result["winner"],
            "hand": cards(final[i]),
            "hand_value": result["hand_values"][i],
            "total": result["scores"][i],
        }
        for i, name in enumerate(names)
    ]
    return {"text": text.game_over_text(result, names), "rummy": result["rummy"], "rows": rows}


class BasicRummyPresentation(CardRummyPresentation):
    key = GAME.key
    label = gettext_lazy("Basic Rummy (cards)")
    preset_labels: ClassVar[Mapping[str, StrOrPromise]] = {
        "basic-rummy": gettext_lazy(
            "Basic Rummy (aces low, any number of melds, no final discard)"
        ),
        "one-meld-a-turn": gettext_lazy("One meld a turn"),
        "final-discard": gettext_lazy("A final discard to go out"),
        "jokers-wild": gettext_lazy("Two jokers, wild"),
        "aces-high-or-low": gettext_lazy("Aces high or low (QKA and A23)"),
        "round-the-corner": gettext_lazy("Round the corner (KA2 too)"),
        "block-rummy": gettext_lazy("Block rummy (the stock once through)"),
        "rummy-500-pickup": gettext_lazy("Rummy 500 pickup (deep in the discard pile)"),
        "rummy-001": gettext_lazy("Rummy as the general rules describe it"),
        "basic-rummy-timer": gettext_lazy("Basic Rummy with a one-minute timer"),
    }
    rules_examples: ClassVar[Mapping[str, str]] = {
        "run": "4H 5H 6H",
        "set": "9S 9H 9C",
        "low_ace": "AD 2D 3D",
        "lay_off": "7H",
    }
    template = "games/basic-rummy/game.html"
    board_parts = ("players", "piles", "table")
    page_class = "basic-rummy"
    stylesheets = ("css/cards.css",)
    rule_options_template = "games/basic-rummy/rule_options.html"
    public_parts = frozenset({"players", "piles", "status", "table"})
    script = "js/basic-rummy.js"
    action_form = rummy_forms.ActionForm
    rule_fields = rummy_forms.RULE_FIELDS
    engine = GAME
    forms_module: ClassVar[ModuleType] = rummy_forms
    text_module: ClassVar[ModuleType] = text
    build_context = staticmethod(game_context)


BASIC_RUMMY_PRESENTATION = BasicRummyPresentation()

# What games.plugins reads (settings.REMI_GAMES): this game's engine and presentation.
PRESENTATION = BASIC_RUMMY_PRESENTATION
