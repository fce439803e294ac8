"""Thai Rummy's sentences: its engine speaks in codes and parameters (events, refusals);
these functions word them with gettext for one viewer (cards are named by
:mod:`games.presenters.card_words`, the events all card rummies share worded there too)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.cards import JOKER_TEXT
from games.presenters.card_words import (
    CARD_NOTATION_SLIPS,
    CARD_REFUSALS,
    card_event_text,
    card_name,
    seat_name,
)


def event_text(event: Mapping[str, Any], names: Sequence[str], viewer: int | None) -> str:
    code = event.get("code", "")
    seat = event.get("seat")
    params = event.get("params") or {}
    who = seat_name(names, seat)
    secret = event.get("secret") if viewer is not None and viewer == seat else None
    common = card_event_text(code, params, who, secret)
    if common is not None:
        return common
    if code == "discard-fitted":
        return _("The %(card)s fitted meld %(number)s on the table: %(name)s loses 50 points.") % {
            "card": card_name(params.get("card", JOKER_TEXT)),
            "number": params.get("index", ""),
            "name": who,
        }
    if code == "passed":
        return _("%(name)s passed (the stock is gone).") % {"name": who}
    if code == "went-out":
        fed = params.get("fed_by")
        text = _("%(name)s discarded the last card face down and went out.") % {"name": who}
        if fed is not None:
            text += " " + _("%(name)s gave the last discard it went out on: 50 points off.") % {
                "name": seat_name(names, fed)
            }
        return text
    if code == "game-over":
        return game_over_text(params, names)
    return code


def game_over_text(result: Mapping[str, Any], names: Sequence[str]) -> str:
    scores = list(result.get("scores", ()))
    winner = result.get("winner")
    if result.get("reason") == "out" and winner is not None:
        points = scores[winner] if winner < len(scores) else 0
        return ngettext(
            "%(name)s went out and scores %(points)d point.",
            "%(name)s went out and scores %(points)d points.",
            points,
        ) % {"name": seat_name(names, winner), "points": points}
    return _("The stock is gone and everyone passed: the hand is over.")


_REFUSALS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    **CARD_REFUSALS,
    **CARD_NOTATION_SLIPS,
    "take-needs-meld": lambda p: _(
        "Take a card from the pile with the meld it makes: 'take 7C with 7C 7S 7D'."
    ),
    "game-over": lambda p: _("The hand is over."),
    "draw-first": lambda p: _("Start your turn: draw, take from the pile, or pass."),
    "stock-empty": lambda p: _("The stock is gone: take from the pile or pass."),
    "stock-not-empty": lambda p: _("You may pass only once the stock is gone."),
    "must-use-picked-card": lambda p: _(
        "The deepest card you take from the pile must be in the new meld."
    ),
    "meld-needs-hand-card": lambda p: _("The new meld needs at least one card from your hand."),
}


def refusal_text(code: str, params: Mapping[str, Any]) -> str:
    worded = _REFUSALS.get(code)
    return worded(params) if worded else _("That move is not allowed (%(code)s).") % {"code": code}


# The engine's malformed-move codes that have a sentence above: every slip a typed move can
# make (the rest, such as a wrong player count, are programming errors, shown as they are).
REFUSAL_CODES = frozenset(_REFUSALS) | {"not-a-card"}
_REFUSALS["not-a-card"] = lambda p: _("%(text)s is not a card.") % {"text": p.get("text", "")}
