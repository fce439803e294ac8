"""The new-table form: game, rules (a preset and the options it pre-fills), seats, pace."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine.rules import PRESET_LABELS, PRESETS, UNMELDED_FLAT, UNMELDED_RACK
from games.models import Seat, Table

# The Rules options a table's owner may change; every other option stays as the preset has it.
RULE_FIELDS = (
    "first_meld_minimum",
    "first_meld_takes_discard",
    "doubla",
    "rack_one_value",
    "unmelded_penalty",
    "joly_discard_doubles",
    "max_rebuilds",
    "series_games",
    "target_score",
)

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

# A live game may have no clock (friends at one table); a slow one always has one, or a
# player who walks away would hold the table for ever.
LIVE_MOVE_TIMES = (
    (0, _("No time limit")),
    (MINUTE, _("1 minute a move")),
    (2 * MINUTE, _("2 minutes a move")),
)
SLOW_MOVE_TIMES = (
    (HOUR, _("1 hour a move")),
    (12 * HOUR, _("12 hours a move")),
    (DAY, _("24 hours a move")),
    (3 * DAY, _("3 days a move")),
)
DEFAULT_MOVE_SECONDS = {Table.Pace.LIVE: 2 * MINUTE, Table.Pace.SLOW: DAY}

PUBLIC = "public"
PRIVATE = "private"

BOT_LEVELS = tuple((value, label) for value, label in Seat.Bot.choices if value)


def preset_choices() -> list[tuple[str, str]]:
    return [(name, PRESET_LABELS.get(name, name)) for name in PRESETS]


def preset_options(preset: str) -> dict[str, Any]:
    """The exposed options as ``preset`` sets them: the form's initial values for that preset."""
    rules = PRESETS[preset]
    return {name: getattr(rules, name) for name in RULE_FIELDS}


class TableForm(forms.Form):
    game_type = forms.ChoiceField(
        label=_("Game"), choices=Table.GameType.choices, initial=Table.GameType.REMI
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=preset_choices,
        initial="remi",
        help_text=_("Choosing rules fills in the options below; you can then change them."),
    )

    # --- Rule options (named as the engine's Rules fields) ---
    first_meld_minimum = forms.TypedChoiceField(
        label=_("First meld minimum"),
        choices=((50, _("50 points")), (45, _("45 points"))),
        coerce=int,
        widget=forms.RadioSelect,
    )
    first_meld_takes_discard = forms.BooleanField(
        label=_("The first meld may use the previous player's discard"), required=False
    )
    doubla = forms.BooleanField(
        label=_("Doubla: players may exchange identical pairs before play"), required=False
    )
    rack_one_value = forms.TypedChoiceField(
        label=_("A 1 left on the rack costs"),
        choices=((25, _("25 points")), (5, _("5 points"))),
        coerce=int,
        widget=forms.RadioSelect,
    )
    unmelded_penalty = forms.ChoiceField(
        label=_("A player who never melded"),
        choices=(
            (UNMELDED_FLAT, _("loses 200 points")),
            (UNMELDED_RACK, _("loses 100 points plus the tiles on the rack")),
        ),
        widget=forms.RadioSelect,
    )
    joly_discard_doubles = forms.BooleanField(
        label=_("Going out by discarding a Joly doubles the winner's score"), required=False
    )
    max_rebuilds = forms.IntegerField(
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
    )
    series_games = forms.IntegerField(
        label=_("Number of games"),
        required=False,
        min_value=1,
        max_value=50,
        help_text=_("Leave empty to play until someone reaches the target score."),
        error_messages={
            "min_value": _("A series has at least 1 game."),
            "max_value": _("A series has at most 50 games."),
        },
    )
    target_score = forms.IntegerField(
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
    )

    # --- Seats ---
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        choices=((2, "2"), (3, "3"), (4, "4")),
        coerce=int,
        initial=4,
    )
    bots = forms.TypedChoiceField(
        label=_("Seats to fill with bots"),
        choices=((0, _("None")), (1, "1"), (2, "2"), (3, "3")),
        coerce=int,
        initial=0,
        help_text=_("Bots take the seats after yours; the others wait for people."),
    )
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BOT_LEVELS, initial="normal")

    # --- Pace and who may join ---
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=(
            (Table.Pace.LIVE, _("Live: everyone plays now")),
            (Table.Pace.SLOW, _("Slow: a move when you have time")),
        ),
        initial=Table.Pace.LIVE,
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=((_("Live games"), LIVE_MOVE_TIMES), (_("Slow games"), SLOW_MOVE_TIMES)),
        coerce=int,
        initial=DEFAULT_MOVE_SECONDS[Table.Pace.LIVE],
        help_text=_("When the time runs out, the table plays a safe move for the player."),
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=(
            (PUBLIC, _("Anyone: the table is listed in the lobby")),
            (PRIVATE, _("Only people I send the invitation link to")),
        ),
        initial=PUBLIC,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Checkboxes have their label after them, where a colon reads oddly.
        kwargs.setdefault("label_suffix", "")
        # An unbound form starts from the default preset's options unless told otherwise.
        kwargs["initial"] = {**preset_options("remi"), **(kwargs.get("initial") or {})}
        super().__init__(*args, **kwargs)
        # Choosing a preset asks the server for the options it sets and swaps them in.
        self.fields["preset"].widget.attrs.update(
            {
                "hx-get": reverse("games:table_create"),
                "hx-trigger": "change",
                "hx-target": "#rule-options",
                "hx-swap": "outerHTML",
            }
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        seats, bots = data.get("seat_count"), data.get("bots")
        if seats is not None and bots is not None and bots >= seats:
            self.add_error(
                "bots",
                _(
                    "Leave at least one seat for a person: a table of %(seats)d seats "
                    "takes at most %(most)d bots."
                )
                % {"seats": seats, "most": seats - 1},
            )
        pace, seconds = data.get("pace"), data.get("move_seconds")
        if pace == Table.Pace.SLOW and seconds not in dict(SLOW_MOVE_TIMES):
            self.add_error(
                "move_seconds",
                _("A slow game needs a time per move of 1 hour, 12 hours, 24 hours or 3 days."),
            )
        if pace == Table.Pace.LIVE and seconds not in dict(LIVE_MOVE_TIMES):
            self.add_error(
                "move_seconds",
                _("A live game has no time limit or 1 or 2 minutes a move."),
            )
        # Only complain when both fields are valid but empty; a bad number has its own error.
        if (
            "series_games" in data
            and "target_score" in data
            and data["series_games"] is None
            and data["target_score"] is None
        ):
            self.add_error(
                "series_games",
                _("Set a number of games, a target score or both, or the series never ends."),
            )
        return data

    def rule_options(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in RULE_FIELDS}

    def create_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for services.create_table (the owner aside)."""
        data = self.cleaned_data
        return {
            "preset": data["preset"],
            "options": self.rule_options(),
            "seat_count": data["seat_count"],
            "bots": [data["bot_level"]] * data["bots"],
            "pace": data["pace"],
            "move_seconds": data["move_seconds"],
            "is_public": data["visibility"] == PUBLIC,
        }
