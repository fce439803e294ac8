"""Basic Rummy's sentences: its engine speaks in codes and parameters (events, refusals);
these functions word them with gettext for one viewer (cards are named by
:mod:`games.presenters.card_words`).

A drawn card is an event's ``secret``: it is shown only when the viewer is the event's seat.
"""

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
    if code == "restocked":
        if params.get("how") == "turn-over":
            text = _("The discard pile was turned over to make a new stock")
        else:
            text = _("The discard pile was shuffled to make a new stock")
        return (
            text
            + "; "
            + _("the %(card)s is turned up.") % {"card": card_name(params.get("up", JOKER_TEXT))}
        )
    if code == "went-out":
        if params.get("rummy"):
            return _("%(name)s went rummy: every card in one turn!") % {"name": who}
        return _("%(name)s went out.") % {"name": who}
    if code == "game-over":
        return game_over_text(params, names)
    return code


def game_over_text(result: Mapping[str, Any], names: Sequence[str]) -> str:
    reason = result.get("reason")
    scores = list(result.get("scores", ()))
    winner = result.get("winner")
    if reason == "out" and winner is not None:
        points = scores[winner] if winner < len(scores) else 0
        return ngettext(
            "%(name)s wins the hand and scores %(points)d point.",
            "%(name)s wins the hand and scores %(points)d points.",
            points,
        ) % {"name": seat_name(names, winner), "points": points}
    if reason == "blocked":
        return _("The stock is gone and nobody went out: everyone loses the points in hand.")
    if reason == "stuck":
        return _("Stalemate: nobody can finish any more. Nobody scores.")
    return _("Stalemate: the stock ran out again. Nobody scores.")


_REFUSALS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    **CARD_REFUSALS,
    **CARD_NOTATION_SLIPS,
    "take-needs-use": lambda p: (
        _(
            "Say what the taken card is for: 'take %(card)s with …' (a new meld) or "
            "'take %(card)s on 2' (a meld on the table)."
        )
        % {"card": p.get("card", "")}
    ),
    "game-over": lambda p: _("The hand is over."),
    "discard-pile-empty": lambda p: _("The discard pile is empty."),
    "no-deep-pickup": lambda p: _("Only the top card of the discard pile may be taken."),
    "one-meld-a-turn": lambda p: _("Only one meld a turn at this table."),
    "meld-too-long": lambda p: _("Melds have three or four cards at this table."),
    "too-many-jokers": lambda p: _("A meld needs twice as many natural cards as jokers."),
    "bad-joker-reading": lambda p: _("A joker cannot stand for that card there."),
    "meld-before-laying-off": lambda p: _("Lay off only after a meld of your own."),
    "out-too-early": lambda p: _("You may go out from your second turn only."),
    "discard-just-taken": lambda p: _("You cannot discard the card you just took from the pile."),
}


def refusal_text(code: str, params: Mapping[str, Any]) -> str:
    worded = _REFUSALS.get(code)
    return worded(params) if worded else _("That move is not allowed (%(code)s).") % {"code": code}


# The engine's malformed-move codes that have a sentence above: every slip a typed move can
# make (the rest, such as a wrong player count, are programming errors, shown as they are).
REFUSAL_CODES = frozenset(_REFUSALS) | {"not-a-card"}
_REFUSALS["not-a-card"] = lambda p: _("%(text)s is not a card.") % {"text": p.get("text", "")}
