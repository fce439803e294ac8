"""Cards as the card rummies' templates draw them: rank and suit symbol always shown, so
colour is never the only cue, and a label read out by screen readers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.cards import RANK_TEXT, parse_card

from .card_words import card_name

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True, slots=True)
class CardView:
    code: str
    rank: str  # "A", "2"... "K"; "★" for a joker
    suit: str  # S H D C, or X for a joker
    symbol: str
    label: str

    @property
    def is_joker(self) -> bool:
        return self.suit == "X"


def card_view(code: str, stands: str = "") -> CardView:
    """The card as the templates draw it, named in the language being rendered (kept per
    language: the first viewer's language must not name the card for everyone)."""
    return _card_view(code, stands, get_language())


@cache
def _card_view(code: str, stands: str, language: str | None) -> CardView:
    del language  # the cache key: card_name below speaks the active language
    card = parse_card(code)
    label = card_name(code, stands if stands != code else "")
    if card.is_joker:
        shown = parse_card(stands) if stands and stands != code else None
        rank = RANK_TEXT[shown.rank] if shown else "★"
        symbol = SUIT_SYMBOLS[shown.suit] if shown else ""
        return CardView(code, rank, "X", symbol, label)
    return CardView(code, RANK_TEXT[card.rank], card.suit, SUIT_SYMBOLS[card.suit], label)


def cards(codes: Sequence[str]) -> list[CardView]:
    return [card_view(c) for c in codes]


def table_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for index, meld in enumerate(view["table"], start=1):
        cards = [card_view(c, s) for c, s in zip(meld["cards"], meld["as"], strict=True)]
        kind = _("run") if meld["kind"] == "run" else _("set")
        rows.append(
            {
                "index": index,
                "kind": meld["kind"],
                "cards": cards,
                "label": _("Meld %(number)d, %(kind)s: %(cards)s")
                % {"number": index, "kind": kind, "cards": ", ".join(c.label for c in cards)},
            }
        )
    return rows
