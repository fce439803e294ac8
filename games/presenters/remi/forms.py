"""Remi's forms: the game page's move form (its fields become the engine's notation), the
rack order, and the rule options a new table's owner may change."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.errors import InvalidAction
from games.engine.remi.rules import (
    DOUBLA_EVEN,
    DOUBLA_PRINTED,
    NO_WINNER_PENALTY,
    NO_WINNER_RACK,
    UNMELDED_FLAT,
    UNMELDED_RACK,
)
from games.presenters.base import form_problem as problem
from games.presenters.tile_words import TILE_WORD, meld_words
from remi_site.form_fields import WholeNumberField, ascii_int

# The Rules options a table's owner may change; every other option stays as the preset has it.
RULE_FIELDS = (
    "first_meld_minimum",
    "first_meld_takes_discard",
    "doubla",
    "many_doublas",
    "doubla_split",
    "first_meld_turn_swap",
    "rack_one_value",
    "unmelded_penalty",
    "no_winner_unmelded",
    "joly_discard_doubles",
    "max_rebuilds",
    "max_idle_rebuilds",
    "series_games",
    "target_score",
)

BARE_VERBS = ("draw", "take", "exposed", "declare", "ready", "undo")
VERBS = (*BARE_VERBS, "pick", "meld", "add", "swap", "discard", "doubla", "exchange", "notation")

# One tile, a Joly with the tile it stands for, or the bar between two melds.
MAX_NOTATION = 200  # the Action log's column; no legal move comes near it


class ActionForm(forms.Form):
    """The fields the game page posts: a verb with the selected tiles, meld and row tile, or a
    move typed in notation.  Anything a page could not have sent fails here (400)."""

    version = WholeNumberField(min_value=0)
    verb = forms.ChoiceField(choices=[(v, v) for v in VERBS])
    notation = forms.CharField(max_length=MAX_NOTATION, required=False)
    tiles = forms.CharField(max_length=MAX_NOTATION, required=False)
    meld = WholeNumberField(min_value=0, max_value=999, required=False)
    row = WholeNumberField(min_value=0, max_value=999, required=False)
    seat = WholeNumberField(min_value=0, max_value=3, required=False)
    label = forms.ChoiceField(
        choices=[("", "none"), ("low", "low"), ("high", "high")], required=False
    )

    def clean_tiles(self) -> list[list[str]]:
        """The selection as melds of tile words (a bar separates melds)."""
        groups = meld_words(self.cleaned_data["tiles"])
        if groups is None:
            raise forms.ValidationError(_("The selected tiles are not tiles."))
        return groups


class RackForm(forms.Form):
    order = forms.CharField(max_length=400)

    def clean_order(self) -> list[str]:
        words = self.cleaned_data["order"].upper().split()
        if any(not TILE_WORD.match(w) or "=" in w or w == "|" for w in words):
            raise forms.ValidationError("The order names something that is not a tile.")
        return words


def notation(data: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """The engine's notation for what the page sent.  A selection that cannot make the move
    is the player's slip, raised as an InvalidAction with a code like the engine's own
    refusals (worded by ``refusals.MALFORMED``)."""
    verb = data["verb"]
    groups: list[list[str]] = data["tiles"]
    flat = [tile for group in groups for tile in group]
    if verb == "notation":
        text = data["notation"].strip()
        if not text:
            raise InvalidAction("type-a-move")
        return text
    if verb in BARE_VERBS:
        return verb
    if verb == "discard":
        if len(flat) != 1:
            raise InvalidAction("select-discard")
        return f"discard {flat[0]}"
    if verb == "meld":
        if not flat:
            raise InvalidAction("select-meld")
        return "meld " + " | ".join(" ".join(group) for group in groups)
    if verb == "add":
        if data["meld"] is None or not flat:
            raise InvalidAction("select-add")
        return f"add {data['meld']} {' '.join(flat)}"
    if verb == "swap":
        if data["meld"] is None or len(groups) != 2:
            raise InvalidAction("select-swap")
        replacement, partners = groups
        return f"swap {data['meld']} {' '.join(replacement)} into J {' '.join(partners)}"
    if verb == "pick":
        row = str(state.get("discards", "")).split()
        index = data["row"]
        if index is None or not 0 <= index < len(row) or len(flat) != 2:
            raise InvalidAction("select-pick")
        return f"pick {index} {row[index]} {flat[0]} {flat[1]}"
    if verb == "doubla":
        if not flat or len(set(flat)) != 1:
            raise InvalidAction("select-doubla")
        return f"doubla {flat[0]}" + (f" {data['label']}" if data["label"] else "")
    if verb == "exchange":
        if data["seat"] is None:
            raise InvalidAction("select-exchange")
        return f"exchange {data['seat']}"
    raise InvalidAction("unknown-verb", verb=verb)  # VERBS and this list agree


def rule_form_fields() -> dict[str, forms.Field]:
    """Fresh form fields for ``RULE_FIELDS`` (a form owns its fields, so each call builds new
    ones)."""
    return {
        "first_meld_minimum": forms.TypedChoiceField(
            label=_("First meld minimum"),
            choices=((50, _("50 points")), (45, _("45 points"))),
            coerce=ascii_int,
            widget=forms.RadioSelect,
        ),
        "first_meld_takes_discard": forms.BooleanField(
            label=_("The first meld may use the previous player's discard"), required=False
        ),
        "doubla": forms.BooleanField(
            label=_("Doubla: players may exchange identical pairs before play"), required=False
        ),
        "many_doublas": forms.BooleanField(
            label=_("A player may offer another doubla once the first is exchanged"),
            required=False,
        ),
        "doubla_split": forms.TypedChoiceField(
            label=_("A doubla's label"),
            choices=(
                (DOUBLA_PRINTED, _("2-9 low, 10-13 and 1 high (printed rules)")),
                (DOUBLA_EVEN, _("1-6 low, 7-13 high")),
            ),
            required=False,
            empty_value=DOUBLA_PRINTED,
            widget=forms.RadioSelect,
        ),
        "first_meld_turn_swap": forms.BooleanField(
            label=_("In the turn of the first meld, a Joly may be freed from a meld just laid"),
            required=False,
        ),
        "rack_one_value": forms.TypedChoiceField(
            label=_("A 1 left on the rack costs"),
            choices=((25, _("25 points")), (5, _("5 points"))),
            coerce=ascii_int,
            widget=forms.RadioSelect,
        ),
        "unmelded_penalty": forms.ChoiceField(
            label=_("A player who never melded"),
            choices=(
                (UNMELDED_FLAT, _("loses 200 points")),
                (UNMELDED_RACK, _("loses 100 points plus the tiles on the rack")),
            ),
            widget=forms.RadioSelect,
        ),
        "no_winner_unmelded": forms.ChoiceField(
            label=_("In a game with no winner, a player who never melded"),
            choices=(
                (NO_WINNER_RACK, _("loses the tiles on the rack, like everyone else")),
                (NO_WINNER_PENALTY, _("loses as when someone goes out (the choice above)")),
            ),
            widget=forms.RadioSelect,
        ),
        "joly_discard_doubles": forms.BooleanField(
            label=_("Going out by discarding a Joly doubles the winner's score"), required=False
        ),
        "max_rebuilds": WholeNumberField(
            label=_("Wall rebuilds allowed"),
            required=False,
            min_value=0,
            max_value=50,
            help_text=_(
                "Leave empty for no limit. When the wall runs out after the last rebuild, "
                "the game ends with no winner."
            ),
            error_messages={
                "min_value": _("The number of rebuilds cannot be negative."),
                "max_value": _("Allow at most 50 rebuilds, or leave the field empty for no limit."),
            },
        ),
        "max_idle_rebuilds": WholeNumberField(
            label=_("Safety cap: rebuilds in a row with nothing laid"),
            required=False,
            min_value=1,
            max_value=100,
            help_text=_(
                "Leave empty for no cap: the game then ends with no winner only when no tile "
                "can ever be laid again."
            ),
            error_messages={
                "min_value": _("The cap is at least 1 rebuild."),
                "max_value": _("Allow at most 100 rebuilds, or leave the field empty for no cap."),
            },
        ),
        "series_games": WholeNumberField(
            label=_("Number of games"),
            required=False,
            min_value=1,
            max_value=50,
            help_text=_("Leave empty to play until someone reaches the target score."),
            error_messages={
                "min_value": _("A series has at least 1 game."),
                "max_value": _("A series has at most 50 games."),
            },
        ),
        "target_score": WholeNumberField(
            label=_("Target score"),
            required=False,
            min_value=1,
            max_value=100_000,
            help_text=_(
                "Leave empty to play the number of games above. With both, the series ends "
                "at whichever comes first."
            ),
            error_messages={
                "min_value": _("The target score must be a positive number of points."),
                "max_value": _("The target score can be at most 100000 points."),
            },
        ),
    }


__all__ = ["RULE_FIELDS", "ActionForm", "RackForm", "notation", "problem", "rule_form_fields"]
