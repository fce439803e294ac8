"""Basic Rummy's forms: the move form (a verb and the cards picked in the hand) and the rule
options of the new-table form, with the rules said for people on table cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.basic_rummy.rules import (
    PRESETS,
    STOCK_BLOCK,
    STOCK_SHUFFLE,
    STOCK_TURN_OVER,
    TARGETS,
    Rules,
)
from games.engine.card_melds import ACES_AROUND, ACES_HIGH_OR_LOW, ACES_LOW
from games.engine.cards import JOKER_TEXT, format_cards, full_deck
from games.engine.errors import InvalidAction
from games.presenters.card_rummy import pickup_notation
from remi_site.form_fields import WholeNumberField, ascii_int, ascii_int_or_none

RULE_FIELDS = (
    "jokers",
    "aces",
    "one_meld_per_turn",
    "final_discard",
    "lay_off_after_own_meld",
    "long_melds",
    "stock_empty",
    "deep_pickup",
    "out_from_second_turn",
    "rummy_doubles",
    "ace_points",
    "out_bonus",
    "target_score",
)

VERBS = ("draw", "take", "pickup", "meld", "layoff", "discard", "notation")
CARD_CHOICES = [(code, code) for code in [*format_cards(full_deck()).split(), JOKER_TEXT]]


class ActionForm(forms.Form):
    """What the game page posts: a verb, the cards ticked in the hand (in hand order) and,
    with the rummy 500 pickup, in the spread discard pile (from the bottom), the meld to lay
    off on, or a move typed in notation.  Anything a page could not have sent fails here
    (400)."""

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
    if verb in ("draw", "take"):
        return verb
    if verb == "pickup":
        return pickup_notation(list(data.get("pile") or []), cards)
    if verb == "notation":
        text = str(data.get("notation") or "").strip()
        if not text:
            raise InvalidAction(_("Type a move, for example 'meld 5H 6H 7H' or 'discard QS'."))
        return text
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

ACES_CHOICES = (
    (ACES_LOW, gettext_lazy("low only: A-2-3")),
    (ACES_HIGH_OR_LOW, gettext_lazy("high or low: A-2-3 or Q-K-A")),
    (ACES_AROUND, gettext_lazy("round the corner: K-A-2 too")),
)
STOCK_CHOICES = (
    (STOCK_SHUFFLE, gettext_lazy("the discard pile is shuffled into a new stock")),
    (STOCK_TURN_OVER, gettext_lazy("the discard pile is turned over, unshuffled")),
    (STOCK_BLOCK, gettext_lazy("block rummy: the hand ends, everyone loses their points")),
)
JOKER_CHOICES = ((0, gettext_lazy("none")), (2, gettext_lazy("two, wild")))
ACE_POINT_CHOICES = ((1, "1"), (11, "11"), (15, "15"))
BONUS_CHOICES = ((0, gettext_lazy("none")), (10, "10"))
TARGET_CHOICES = (
    ("", gettext_lazy("by players: 100 for two, 150 for three, 200 for four")),
    *((str(n), str(n)) for n in (100, 150, 200, 250, 300, 500)),
)


def rule_form_fields() -> dict[str, forms.Field]:
    """Fresh form fields for ``RULE_FIELDS`` (a form owns its fields)."""

    def check(label: Any) -> forms.BooleanField:
        return forms.BooleanField(label=label, required=False)

    def radios(label: Any, choices: Any, coerce: Any = str) -> forms.TypedChoiceField:
        return forms.TypedChoiceField(
            label=label, choices=choices, coerce=coerce, widget=forms.RadioSelect
        )

    return {
        "jokers": radios(gettext_lazy("Jokers"), JOKER_CHOICES, ascii_int),
        "aces": radios(gettext_lazy("Aces in runs"), ACES_CHOICES),
        "one_meld_per_turn": check(gettext_lazy("Only one new meld a turn")),
        "final_discard": check(gettext_lazy("Going out needs a final discard")),
        "lay_off_after_own_meld": check(gettext_lazy("Lay off only after a meld of your own")),
        "long_melds": check(gettext_lazy("Melds may be longer than four cards")),
        "stock_empty": radios(gettext_lazy("When the stock runs out"), STOCK_CHOICES),
        "deep_pickup": check(
            gettext_lazy("Rummy 500 pickup: a card from deep in the pile, with all above it")
        ),
        "out_from_second_turn": check(gettext_lazy("No going out on one's first turn")),
        "rummy_doubles": check(gettext_lazy("Going rummy doubles the points")),
        "ace_points": radios(
            gettext_lazy("An ace left in hand counts"), ACE_POINT_CHOICES, ascii_int
        ),
        "out_bonus": radios(gettext_lazy("Bonus for going out"), BONUS_CHOICES, ascii_int),
        "target_score": forms.TypedChoiceField(
            label=gettext_lazy("Match to"),
            choices=TARGET_CHOICES,
            coerce=ascii_int_or_none,
            empty_value=None,
            required=False,
        ),
    }


def rule_options(rules: Rules) -> dict[str, Any]:
    options = {name: getattr(rules, name) for name in RULE_FIELDS}
    options["target_score"] = "" if rules.target_score is None else str(rules.target_score)
    return options


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def rule_rows(rules: Rules) -> tuple[tuple[str, str], ...]:
    return (
        (_("Jokers"), str(dict(JOKER_CHOICES)[rules.jokers])),
        (_("Aces"), str(dict(ACES_CHOICES)[rules.aces])),
        (_("One meld a turn"), _yes_no(rules.one_meld_per_turn)),
        (_("Final discard"), _yes_no(rules.final_discard)),
        (_("Lay off after own meld"), _yes_no(rules.lay_off_after_own_meld)),
        (_("Long melds"), _yes_no(rules.long_melds)),
        (_("When the stock runs out"), str(dict(STOCK_CHOICES)[rules.stock_empty])),
        (_("Rummy 500 pickup"), _yes_no(rules.deep_pickup)),
        (_("Going out from the second turn"), _yes_no(rules.out_from_second_turn)),
        (_("Going rummy doubles"), _yes_no(rules.rummy_doubles)),
        (_("Ace points"), str(rules.ace_points)),
        (_("Bonus for going out"), str(rules.out_bonus)),
        (_("Match"), series_text(rules)),
    )


def rule_notes(preset: str, rules: Rules) -> tuple[str, ...]:
    """Where ``rules`` differ from ``preset``, one short note per option."""
    base = PRESETS.get(preset)
    if base is None:
        return ()
    return tuple(
        f"{label}: {value}"
        for (label, value), (_label, before) in zip(rule_rows(rules), rule_rows(base), strict=True)
        if value != before and label != _("Match")
    )


def series_text(rules: Rules) -> str:
    games, target = rules.series_games, rules.target_score
    if games is None and target is None:
        return _("to %(two)d / %(three)d / %(four)d points for 2 / 3 / 4 players") % {
            "two": TARGETS[2],
            "three": TARGETS[3],
            "four": TARGETS[4],
        }
    if games is not None and target is not None:
        return ngettext(
            "%(games)d hand or %(target)d points", "%(games)d hands or %(target)d points", games
        ) % {"games": games, "target": target}
    if target is not None:
        return _("to %(target)d points") % {"target": target}
    return ngettext("%(games)d hand", "%(games)d hands", games or 1) % {"games": games or 1}
