"""Thai Rummy's forms: the move form (a verb, the cards picked in the hand and in the
discard pile) and the rule options of the new-table form, with the rules said for people
on table cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.cards import format_cards, full_deck
from games.engine.errors import InvalidAction
from games.engine.thai_rummy.rules import GAME_TARGET, PRESETS, Rules
from games.presenters.card_rummy import pickup_notation
from remi_site.form_fields import WholeNumberField, ascii_int

RULE_FIELDS = ("double_out_bonus", "layoff_shows", "target_score")

VERBS = ("draw", "take", "pass", "meld", "layoff", "discard", "notation")
CARD_CHOICES = [(code, code) for code in format_cards(full_deck()).split()]


class ActionForm(forms.Form):
    """What the game page posts: a verb, the cards ticked in the hand and in the discard
    pile (each in the page's order: the pile from the bottom), the meld to lay off on, or a
    move typed in notation.  Anything a page could not have sent fails here (400)."""

    version = WholeNumberField(min_value=0)
    verb = forms.ChoiceField(choices=[(v, v) for v in VERBS])
    cards = forms.MultipleChoiceField(choices=CARD_CHOICES, required=False)
    pile = forms.MultipleChoiceField(choices=CARD_CHOICES, required=False)
    onto = WholeNumberField(min_value=1, max_value=200, required=False)
    notation = forms.CharField(max_length=400, required=False)


def notation(data: Mapping[str, Any]) -> str:
    """The engine's notation for what the page sent; a slip is an ``InvalidAction`` worded
    for the player."""
    verb = data["verb"]
    cards: list[str] = list(data.get("cards") or [])
    pile: list[str] = list(data.get("pile") or [])
    if verb in ("draw", "pass"):
        return verb
    if verb == "notation":
        text = str(data.get("notation") or "").strip()
        if not text:
            raise InvalidAction(_("Type a move, for example 'meld 5H 6H 7H' or 'discard QS'."))
        return text
    if verb == "take":
        return pickup_notation(pile, cards)
    if verb == "discard":
        if len(cards) != 1:
            raise InvalidAction(_("Pick exactly one card of your hand to discard."))
        return f"discard {cards[0]}"
    if not cards:
        raise InvalidAction(_("Pick the cards of your hand first."))
    if verb == "meld":
        return "meld " + " ".join(cards)
    onto = data.get("onto")
    if not onto:
        raise InvalidAction(_("Choose the meld to lay off on."))
    return f"layoff {onto} " + " ".join(cards)


# --- Rule options ---------------------------------------------------------------------------

TARGET_CHOICES = tuple((n, str(n)) for n in (250, GAME_TARGET, 1000))


def rule_form_fields() -> dict[str, forms.Field]:
    """Fresh form fields for ``RULE_FIELDS`` (a form owns its fields)."""
    return {
        "double_out_bonus": forms.BooleanField(
            label=gettext_lazy("Doubling a score doubles the 50 for going out too"),
            required=False,
        ),
        "layoff_shows": forms.BooleanField(
            label=gettext_lazy("Laying off counts as showing a meld (no doubling after it)"),
            required=False,
        ),
        "target_score": forms.TypedChoiceField(
            label=gettext_lazy("Game to (won by going out at this total; lost at minus it)"),
            choices=TARGET_CHOICES,
            coerce=ascii_int,
            widget=forms.RadioSelect,
        ),
    }


def rule_options(rules: Rules) -> dict[str, Any]:
    options = {name: getattr(rules, name) for name in RULE_FIELDS}
    if options["target_score"] is None:
        options["target_score"] = GAME_TARGET
    return options


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def rule_rows(rules: Rules) -> tuple[tuple[str, str], ...]:
    return (
        (_("The 50 for going out is doubled too"), _yes_no(rules.double_out_bonus)),
        (_("Laying off counts as showing a meld"), _yes_no(rules.layoff_shows)),
        (_("Game"), series_text(rules)),
    )


def rule_notes(preset: str, rules: Rules) -> tuple[str, ...]:
    """Where ``rules`` differ from ``preset``, one short note per option."""
    base = PRESETS.get(preset)
    if base is None:
        return ()
    return tuple(
        f"{label}: {value}"
        for (label, value), (_label, before) in zip(rule_rows(rules), rule_rows(base), strict=True)
        if value != before and label != _("Game")
    )


def series_text(rules: Rules) -> str:
    if rules.target_score is None:
        games = rules.series_games or 1
        return ngettext("%(games)d hand", "%(games)d hands", games) % {"games": games}
    text = _("to %(target)d points after going out, or lost at %(floor)d") % {
        "target": rules.target_score,
        "floor": -rules.target_score,
    }
    if rules.series_games is not None:
        text += "; " + ngettext(
            "at most %(games)d hand", "at most %(games)d hands", rules.series_games
        ) % {"games": rules.series_games}
    return text
