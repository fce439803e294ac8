"""Thai Rummy's presentation: what one seat (or a spectator) sees of a hand, as template
context, and the adapter the site dispatches to (``THAI_RUMMY_PRESENTATION``).

Everything comes from the engine's ``player_view``: the seat's own hand, the table (melds,
and the cards each player displayed), the discard pile spread face up, and counts of the
other hands.  Cards are drawn by the templates from
:class:`~games.presenters.card_faces.CardView`; the page shares Basic Rummy's parts where they
fit (status line, table, hand, log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from games.engine.thai_rummy import GAME
from games.engine.thai_rummy.state import State
from games.models import Action, Game, Seat
from games.presenters.base import game_urls, once_per_game, recent_actions, series_context
from games.presenters.card_faces import card_view, cards, table_rows
from games.presenters.card_recent import last_turn, mark_table, put_down
from games.presenters.card_rummy import CardRummyPresentation
from games.presenters.card_words import seat_name
from games.presenters.log_entries import log_entries
from games.presenters.seat_names import seat_place, shown_names

from . import forms as thai_forms
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
    table = mark_table(table_rows(view), turn)
    over = view["result"] is not None
    my_turn = seat is not None and not over and view["turn"] == seat and not replay
    drawing = my_turn and view["phase"] == "draw"
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
            "displayed": cards(view["displayed"][i]),
            # Where the cards the last turn laid down begin among those this seat displays.
            "new_from": len(view["displayed"][i]) - (put_down(table) if i == turn.seat else 0),
            "shown": view["shown"][i],
            "penalty_points": 50 * view["penalties"][i],
            "total": totals[i] if i < len(totals) else None,
        }
        for i, name in enumerate(names)
    ]
    # The pile reads the same for every viewer: made once per version (a replay shows other
    # positions of the same game object, so it makes its own).
    pile = (
        _pile(view, names) if replay else once_per_game(game, ("pile",), lambda: _pile(view, names))
    )
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
        "drawing": drawing,
        "turn_drawing": view["phase"] == "draw",  # for every viewer, as in Basic Rummy's
        # Basic Rummy's status line, worded for Thai Rummy's start of a turn.
        "draw_prompt": (
            _("Your turn: draw, or take from the pile with a new meld")
            if view["stock_count"]
            else _("Your turn: the stock is gone, take from the pile or pass")
        ),
        "players": players,
        "table": table,
        # What the last turn brought is marked for every viewer (card_recent.py).
        "last_turn_seat": turn.seat,
        "last_discard": turn.discard is not None
        and turn.discard == (view["discard"] or [None])[-1],
        "hand": cards(view["hand"]) if view["hand"] is not None and not over else None,
        "taken": None,
        "stock_count": view["stock_count"],
        "pile": pile,
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
            "shown": result["shown"][i],
            "in_hand": result["in_hand"][i],
            "counts_hand": i != result["winner"],
            "doubled": result["doubled"][i],
            "penalties": result["penalties"][i],
            "total": result["scores"][i],
        }
        for i, name in enumerate(names)
    ]
    face_down = card_view(view["face_down"]) if view["face_down"] else None
    return {"text": text.game_over_text(result, names), "rows": rows, "face_down": face_down}


class ThaiRummyPresentation(CardRummyPresentation):
    key = GAME.key
    label = gettext_lazy("Thai Rummy (cards)")
    preset_labels: ClassVar[Mapping[str, StrOrPromise]] = {
        "thai-rummy": gettext_lazy("Thai Rummy (game to 500)"),
        "bonus-not-doubled": gettext_lazy("The +50 for going out is never doubled"),
        "layoff-does-not-show": gettext_lazy("Laying off does not count as showing a meld"),
        "thai-rummy-timer": gettext_lazy("Thai Rummy with a one-minute timer"),
    }
    rules_examples: ClassVar[Mapping[str, str]] = {
        "run": "QS KS AS",
        "set": "5C 5D 5H",
        "pricey": "QS 2C",
    }
    template = "games/thai-rummy/game.html"
    board_parts = ("players", "piles", "table")
    page_class = "thai-rummy"
    stylesheets = ("css/cards.css",)
    rule_options_template = "games/thai-rummy/rule_options.html"
    public_parts = frozenset({"players", "status", "table"})
    script = "js/basic-rummy.js"  # the card rummies share one page script
    action_form = thai_forms.ActionForm
    rule_fields = thai_forms.RULE_FIELDS
    engine = GAME
    forms_module: ClassVar[ModuleType] = thai_forms
    text_module: ClassVar[ModuleType] = text
    build_context = staticmethod(game_context)


THAI_RUMMY_PRESENTATION = ThaiRummyPresentation()

# What games.plugins reads (settings.REMI_GAMES): this game's engine and presentation.
PRESENTATION = THAI_RUMMY_PRESENTATION


def _pile(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    pile = []
    for code, by in zip(view["discard"], view["discarded_by"], strict=True):
        card = card_view(code)
        name = _("turned up at the deal") if by is None else seat_name(names, by)
        # Worded here, once a card: a translation tag per card was most of the pile's render.
        label = _("%(card)s, from %(name)s") % {"card": card.label, "name": name}
        pile.append({"card": card, "by": name, "label": label})
    return pile
