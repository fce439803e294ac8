"""The tile rummy's forms: the move form (a whole table becomes one ``play``), the draft a
player posts while composing a turn, and the rule options of the new-table form, with the
rules said for people on table cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engine.errors import InvalidAction
from games.engine.rummikub.rules import (
    JOKER_FREE,
    JOKER_MATCHING,
    JOKER_MATCHING_FROM_RACK,
    PRESETS,
    START_HIGHEST_DRAW,
    START_RANDOM,
    STOCK_END_NOW,
    STOCK_PLAY_ON,
    Rules,
)
from games.presenters.tile_words import TILE_WORD, meld_words
from remi_site.form_fields import WholeNumberField, ascii_int

RULE_FIELDS = (
    "first_meld_minimum",
    "joker_replacement",
    "joker_locks_meld",
    "freed_joker_own_meld",
    "starting_player",
    "stock_exhausted",
    "series_games",
    "target_score",
)

VERBS = ("play", "draw", "notation")
# One tile, a joker with the tile it stands for, or the bar between two melds.
# 106 tiles of at most six characters with a bar between each: no table comes near it.
MAX_TABLE = 1200


def _melds(text: str) -> list[list[str]]:
    """Tile words grouped into melds (a bar separates melds; empty melds are dropped)."""
    groups = meld_words(text)
    if groups is None:
        raise forms.ValidationError(_("The table names something that is not a tile."))
    return groups


class ActionForm(forms.Form):
    """What the game page posts: Done (``play`` with the draft's table), Draw, or a move
    typed in notation.  Anything a page could not have sent fails here (400)."""

    version = WholeNumberField(min_value=0)
    verb = forms.ChoiceField(choices=[(v, v) for v in VERBS])
    table = forms.CharField(max_length=MAX_TABLE, required=False)
    notation = forms.CharField(max_length=MAX_TABLE, required=False)

    def clean_table(self) -> list[list[str]]:
        return _melds(self.cleaned_data["table"])


class DraftForm(forms.Form):
    """The draft as the page holds it: the table meld by meld and the rack in its order.
    ``reset`` throws the draft away (back to the start of the turn)."""

    table = forms.CharField(max_length=MAX_TABLE, required=False)
    rack = forms.CharField(max_length=MAX_TABLE, required=False)
    reset = forms.BooleanField(required=False)

    def clean_table(self) -> list[list[str]]:
        return _melds(self.cleaned_data["table"])

    def clean_rack(self) -> list[str]:
        words = self.cleaned_data["rack"].upper().split()
        if any(not TILE_WORD.match(w) or "=" in w or w == "|" for w in words):
            raise forms.ValidationError(_("The rack names something that is not a tile."))
        return words


class RackForm(forms.Form):
    order = forms.CharField(max_length=MAX_TABLE)

    def clean_order(self) -> list[str]:
        words = self.cleaned_data["order"].upper().split()
        if any(not TILE_WORD.match(w) or "=" in w or w == "|" for w in words):
            raise forms.ValidationError(_("The order names something that is not a tile."))
        return words


def notation(data: Mapping[str, Any]) -> str:
    """The engine's notation for what the page sent; a slip is an ``InvalidAction``."""
    verb = data["verb"]
    if verb == "draw":
        return "draw"
    if verb == "notation":
        text = str(data["notation"]).strip()
        if not text:
            raise InvalidAction(_("Type a move, for example 'play R1 R2 R3' or 'draw'."))
        return text
    melds: list[list[str]] = data["table"]
    if not melds:
        raise InvalidAction(_("Put tiles from your rack on the table first, or draw."))
    return "play " + " | ".join(" ".join(meld) for meld in melds)


# --- Rule options ---------------------------------------------------------------------------

JOKER_CHOICES = (
    (JOKER_FREE, gettext_lazy("move freely, like any tile")),
    (JOKER_MATCHING, gettext_lazy("move once their matching tile replaces them")),
    (JOKER_MATCHING_FROM_RACK, gettext_lazy("move once their matching tile from the rack does")),
)
START_CHOICES = (
    (START_HIGHEST_DRAW, gettext_lazy("everyone draws a tile; the highest starts")),
    (START_RANDOM, gettext_lazy("a random player")),
)
STOCK_CHOICES = (
    (STOCK_PLAY_ON, gettext_lazy("play on without drawing until a silent round")),
    (STOCK_END_NOW, gettext_lazy("the game ends; the lowest rack wins")),
)


def rule_form_fields() -> dict[str, forms.Field]:
    """Fresh form fields for ``RULE_FIELDS`` (a form owns its fields)."""
    return {
        "first_meld_minimum": forms.TypedChoiceField(
            label=gettext_lazy("First melds are worth at least"),
            choices=((30, gettext_lazy("30 points")), (50, gettext_lazy("50 points"))),
            coerce=ascii_int,
            widget=forms.RadioSelect,
        ),
        "joker_replacement": forms.ChoiceField(
            label=gettext_lazy("Jokers already on the table"),
            choices=JOKER_CHOICES,
            widget=forms.RadioSelect,
        ),
        "joker_locks_meld": forms.BooleanField(
            label=gettext_lazy("A meld holding a joker loses no tile until it is replaced"),
            required=False,
        ),
        "freed_joker_own_meld": forms.BooleanField(
            label=gettext_lazy("A freed joker goes only into a new meld of your own tiles"),
            required=False,
        ),
        "starting_player": forms.ChoiceField(
            label=gettext_lazy("Who starts"), choices=START_CHOICES, widget=forms.RadioSelect
        ),
        "stock_exhausted": forms.ChoiceField(
            label=gettext_lazy("When the stock runs out"),
            choices=STOCK_CHOICES,
            widget=forms.RadioSelect,
        ),
        "series_games": WholeNumberField(
            label=gettext_lazy("Number of games"),
            required=False,
            min_value=1,
            max_value=50,
            help_text=gettext_lazy("Leave empty to play until someone reaches the target score."),
        ),
        "target_score": WholeNumberField(
            label=gettext_lazy("Target score"),
            required=False,
            min_value=1,
            max_value=100_000,
            help_text=gettext_lazy(
                "Leave empty to play the number of games above. With both, the match ends "
                "at whichever comes first."
            ),
        ),
    }


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def rule_rows(rules: Rules) -> tuple[tuple[str, str], ...]:
    return (
        (_("First melds"), str(rules.first_meld_minimum)),
        (_("Jokers on the table"), str(dict(JOKER_CHOICES)[rules.joker_replacement])),
        (_("Melds with a joker are locked"), _yes_no(rules.joker_locks_meld)),
        (_("Freed jokers in own melds only"), _yes_no(rules.freed_joker_own_meld)),
        (_("Who starts"), str(dict(START_CHOICES)[rules.starting_player])),
        (_("When the stock runs out"), str(dict(STOCK_CHOICES)[rules.stock_exhausted])),
        (_("Match"), series_text(rules)),
    )


def rule_notes(preset: str, rules: Rules) -> tuple[str, ...]:
    """Where ``rules`` differ from ``preset``, one short note per option."""
    base = PRESETS.get(preset)
    if base is None:
        return ()
    notes = []
    for (label, value), (_label, before) in zip(rule_rows(rules), rule_rows(base), strict=True):
        if value != before and label != _("Match"):
            notes.append(f"{label}: {value}")
    return tuple(notes)


def series_text(rules: Rules) -> str:
    games, target = rules.series_games, rules.target_score
    if games is not None and target is not None:
        return ngettext(
            "%(games)d game or %(target)d points", "%(games)d games or %(target)d points", games
        ) % {"games": games, "target": target}
    if target is not None:
        return _("to %(target)d points") % {"target": target}
    return ngettext("%(games)d game", "%(games)d games", games or 1) % {"games": games or 1}
