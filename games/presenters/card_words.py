"""Words for playing cards, shared by the card rummies' presentations: cards named for people
and screen readers ("queen of spades", "joker as five of hearts")."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine.cards import JOKER_TEXT, parse_card

# Lazy, so naming a card looks up its two words only (the names are marked for translation).
RANK_WORDS = {
    1: pgettext_lazy("card", "ace"),
    2: pgettext_lazy("card", "two"),
    3: pgettext_lazy("card", "three"),
    4: pgettext_lazy("card", "four"),
    5: pgettext_lazy("card", "five"),
    6: pgettext_lazy("card", "six"),
    7: pgettext_lazy("card", "seven"),
    8: pgettext_lazy("card", "eight"),
    9: pgettext_lazy("card", "nine"),
    10: pgettext_lazy("card", "ten"),
    11: pgettext_lazy("card", "jack"),
    12: pgettext_lazy("card", "queen"),
    13: pgettext_lazy("card", "king"),
}
SUIT_WORDS = {
    "S": pgettext_lazy("card", "spades"),
    "H": pgettext_lazy("card", "hearts"),
    "D": pgettext_lazy("card", "diamonds"),
    "C": pgettext_lazy("card", "clubs"),
}


def card_name(code: str, stands: str = "") -> str:
    """'queen of spades', 'joker', 'joker as five of hearts', in the active language."""
    return _card_name(code, stands, get_language())


# Kept per language: a page names every card on the table and in the log, for every viewer.
@lru_cache(maxsize=4096)
def _card_name(code: str, stands: str, language: str | None) -> str:
    del language  # the cache key: the words below are in the active language
    card = parse_card(code)
    if card.is_joker:
        if stands and stands != JOKER_TEXT:
            return _("joker as %(card)s") % {"card": card_name(stands)}
        return _("joker")
    return _("%(rank)s of %(suit)s") % {
        "rank": str(RANK_WORDS[card.rank]),
        "suit": str(SUIT_WORDS[card.suit]),
    }


def cards_text(codes: Sequence[str]) -> str:
    return ", ".join(card_name(c) for c in codes)


def seat_name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("someone")


def card_event_text(
    code: str, params: Mapping[str, Any], who: str, secret: Mapping[str, Any] | None
) -> str | None:
    """The sentence for an event every card rummy has (a draw, a take from the pile, a meld,
    a lay-off, a discard), for a viewer who sees ``secret`` only when it is theirs; None for
    another event."""
    if code == "drew":
        if secret:
            return _("You drew the %(card)s from the stock.") % {
                "card": card_name(secret.get("card", JOKER_TEXT))
            }
        return _("%(name)s drew from the stock.") % {"name": who}
    if code == "took":
        cards = list(params.get("cards", ()))
        return ngettext(
            "%(name)s took the %(cards)s from the discard pile.",
            "%(name)s took %(count)d cards from the discard pile: %(cards)s.",
            len(cards),
        ) % {"name": who, "count": len(cards), "cards": cards_text(cards)}
    if code == "melded":
        words = str(params.get("meld", "")).split()
        shown = [w.partition("=") for w in words]
        return _("%(name)s melded %(cards)s (meld %(number)d).") % {
            "name": who,
            "cards": ", ".join(card_name(head, reading) for head, _eq, reading in shown),
            "number": params.get("index", 0),
        }
    if code == "laid-off":
        return _("%(name)s laid off %(cards)s on meld %(number)d.") % {
            "name": who,
            "cards": cards_text(params.get("cards", ())),
            "number": params.get("index", 0),
        }
    if code == "discarded":
        return _("%(name)s discarded the %(card)s.") % {
            "name": who,
            "card": card_name(params.get("card", JOKER_TEXT)),
        }
    return None


# Refusals every card rummy's engine may give, worded (each game adds its own).
CARD_REFUSALS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "not-your-turn": lambda p: _("It is not your turn."),
    "already-drew": lambda p: _("You have drawn already this turn."),
    "draw-first": lambda p: _("Draw first: from the stock or the discard pile."),
    "not-in-discard-pile": lambda p: _("That card is not in the discard pile."),
    "must-use-picked-card": lambda p: _("The card taken from deep in the pile must be melded."),
    "not-in-hand": lambda p: (
        _("You do not hold %(cards)s.") % {"cards": cards_text(p.get("cards", ()))}
    ),
    "meld-too-short": lambda p: _("A meld needs at least three cards."),
    "set-too-big": lambda p: _("A set has at most four cards."),
    "card-twice": lambda p: _("A card appears twice."),
    "mixed-suits": lambda p: _("Not a set (one rank) nor a run (one suit)."),
    "not-in-sequence": lambda p: _("Those cards are not in sequence (mind the aces)."),
    "does-not-fit": lambda p: (
        _("That does not fit on meld %(number)s.") % {"number": p.get("index", "")}
    ),
    "no-such-meld": lambda p: (
        _("There is no meld %(number)s on the table.") % {"number": p.get("index", "")}
    ),
    "keep-a-card-to-discard": lambda p: _("Keep a card you may discard to end your turn."),
}

# A move typed in the notation box that cannot be read (``InvalidAction``), as every card
# rummy's parser gives them (games.engine.card_actions): the player typed it, so it is said
# in their words, not as the engine's code.
CARD_NOTATION_SLIPS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "not-text": lambda p: _("An action is written as text."),
    "unknown-verb": lambda p: _("Unknown action '%(verb)s'.") % {"verb": p.get("verb", "")},
    "takes-nothing": lambda p: (
        _("'%(verb)s' takes nothing after it.") % {"verb": p.get("verb", "")}
    ),
    "no-cards": lambda p: _("Name the cards."),
    "not-a-meld-number": lambda p: (
        _("'%(text)s' is not a meld number: write the meld's number in digits.")
        % {"text": p.get("text", "")}
    ),
    "layoff-needs-meld": lambda p: _("Write the meld number and the cards: 'layoff 2 8H'."),
    "discard-one-card": lambda p: _("Discard exactly one card: 'discard QS'."),
    "joker-reading-missing": lambda p: (
        _("Write the card the joker stands for after the '=': '%(word)s'.")
        % {"word": p.get("word", "")}
    ),
    "joker-as-joker": lambda p: (
        _("A joker cannot stand for another joker: '%(word)s'.") % {"word": p.get("word", "")}
    ),
    "only-joker-stands": lambda p: (
        _("Only a joker can stand for another card: '%(word)s'.") % {"word": p.get("word", "")}
    ),
}
