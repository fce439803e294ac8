"""The new-table form: game, rules (a preset and the options it pre-fills), seats, pace.

Each game contributes its presets (its engine) and its rule options (its presentation's
``form_fields``); the form takes those of the game it is for."""

from __future__ import annotations

from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine import GAMES, GameEngine
from games.game_names import game_choices, preset_label
from games.models import Seat, Table, default_game_type
from games.presenters import Presentation, presenter_for
from remi_site.form_fields import ascii_int, choice_field

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

# A live game may have no clock (friends at one table); a correspondence one always has
# one, or a player who walks away would hold the table for ever.
LIVE_MOVE_TIMES = (
    (0, _("No time limit")),
    (20, _("20 seconds a move")),
    (30, _("30 seconds a move")),
    (MINUTE, _("1 minute a move")),
    (2 * MINUTE, _("2 minutes a move")),
    (3 * MINUTE, _("3 minutes a move")),
    (5 * MINUTE, _("5 minutes a move")),
)
SLOW_MOVE_TIMES = (
    (HOUR, _("1 hour a move")),
    (12 * HOUR, _("12 hours a move")),
    (DAY, _("24 hours a move")),
    (2 * DAY, _("2 days a move")),
    (3 * DAY, _("3 days a move")),
    (5 * DAY, _("5 days a move")),
    (7 * DAY, _("7 days a move")),
    (10 * DAY, _("10 days a move")),
    (14 * DAY, _("14 days a move")),
)
# The pace's usual answer to a timeout ("" in the form).
USUAL_ON_TIMEOUT = ""
HANDOVER_CHOICES = (
    (2, _("After 2 timeouts in a row")),
    (3, _("After 3 timeouts in a row")),
    (5, _("After 5 timeouts in a row")),
    (0, _("Never")),
)
DEFAULT_MOVE_SECONDS: dict[str, int] = {Table.Pace.LIVE: 2 * MINUTE, Table.Pace.SLOW: DAY}

PUBLIC = "public"
PRIVATE = "private"

BOT_LEVELS = tuple((value, label) for value, label in Seat.Bot.choices if value)


def game_for(key: object) -> GameEngine:
    """The registered game named by a form value, or the default game."""
    return GAMES[key] if isinstance(key, str) and key in GAMES else GAMES[default_game_type()]


def preset_choices(game: GameEngine) -> list[tuple[str, str]]:
    return [(name, preset_label(game.key, name)) for name in game.presets]


def preset_options(preset: str, game_type: str | None = None) -> dict[str, Any]:
    """The exposed options as ``preset`` sets them: the form's initial values for that preset."""
    game = game_for(game_type)
    return presenter_for(game.key).rule_options(game.presets[preset])


def rule_fields(game_type: str | None = None) -> tuple[str, ...]:
    """The rule options a table's owner may change in ``game_type``."""
    return presenter_for(game_for(game_type).key).rule_fields


class TableForm(forms.Form):
    game_type = forms.ChoiceField(label=_("Game"), choices=game_choices, initial=default_game_type)
    preset = forms.ChoiceField(
        label=_("Rules"),
        help_text=_("Choosing rules fills in the options below; you can then change them."),
    )

    # The rule options come from the chosen game's presentation (``__init__``).

    # --- Seats ---
    seat_count = forms.TypedChoiceField(
        label=_("Seats"),
        choices=((2, "2"), (3, "3"), (4, "4")),
        coerce=ascii_int,
        initial=4,
    )
    bots = forms.TypedChoiceField(
        label=_("Seats to fill with bots"),
        choices=((0, _("None")), (1, "1"), (2, "2"), (3, "3")),
        coerce=ascii_int,
        initial=0,
        help_text=_("Bots take the seats after yours; the others wait for people."),
    )
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BOT_LEVELS, initial="normal")
    bot_speed = forms.ChoiceField(
        label=_("Bot speed"),
        choices=Table.BotSpeed.choices,
        initial=Table.BotSpeed.NORMAL,
        required=False,
    )

    # --- Pace and who may join ---
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=(
            (Table.Pace.LIVE, _("Live: everyone plays now")),
            (Table.Pace.SLOW, _("Correspondence: a move when you have time, hours or days")),
        ),
        initial=Table.Pace.LIVE,
        widget=forms.RadioSelect,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=(
            (_("Live games"), LIVE_MOVE_TIMES),
            (_("Correspondence games"), SLOW_MOVE_TIMES),
        ),
        coerce=ascii_int,
        initial=DEFAULT_MOVE_SECONDS[Table.Pace.LIVE],
        help_text=_(
            "A turn's clock runs from the start of the turn: drawing today and discarding "
            "tomorrow is fine within it, and undoing a step gives no time back."
        ),
    )
    weekends_off = forms.BooleanField(
        label=_("No clock on weekends (correspondence)"),
        required=False,
        help_text=_(
            "Saturday and Sunday in each player's own time zone do not count: a deadline "
            "moves past the weekend."
        ),
    )
    on_timeout = forms.ChoiceField(
        label=_("When a player's time runs out"),
        choices=(
            (
                USUAL_ON_TIMEOUT,
                _(
                    "As usual for the pace: a bot plays the turn in correspondence "
                    "games, the safe timeout move in live ones"
                ),
            ),
            *Table.OnTimeout.choices,
        ),
        required=False,
        initial=USUAL_ON_TIMEOUT,
    )
    handover_after = forms.TypedChoiceField(
        label=_("Hand the seat to a bot for the rest of the series"),
        choices=HANDOVER_CHOICES,
        coerce=ascii_int,
        initial=3,
        # A form from before this option (or a script) gets the usual three.
        required=False,
        # django-stubs allows only a string or None; Django returns any value for an empty one.
        empty_value=3,  # type: ignore[arg-type]
        help_text=_(
            "The player can take the seat back from the game page; a move of theirs "
            "starts the count again."
        ),
    )
    forbid_vacation = forms.BooleanField(
        label=_("Clocks keep running during players' vacations"),
        required=False,
        help_text=_("Leave unticked to let a player's vacation stop their clock here."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("The games move the players' ratings. People only: no bot seats."),
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
        data = args[0] if args else kwargs.get("data")
        initial = kwargs.get("initial") or {}
        chosen = (data or {}).get("game_type") or initial.get("game_type")
        self.game = game_for(chosen)
        self.presentation: Presentation = presenter_for(self.game.key)
        # An unbound form starts from the default preset's options unless told otherwise.
        kwargs["initial"] = {
            "preset": self.game.default_preset,
            **self.presentation.rule_options(self.game.presets[self.game.default_preset]),
            **initial,
            "game_type": self.game.key,
        }
        super().__init__(*args, **kwargs)
        choice_field(self, "preset").choices = preset_choices(self.game)
        self.fields.update(self.presentation.form_fields())
        self.order_fields(["game_type", "preset", *self.presentation.rule_fields])
        seats = range(self.game.min_seats, self.game.max_seats + 1)
        choice_field(self, "seat_count").choices = [(n, str(n)) for n in seats]
        self.fields["seat_count"].initial = min(max(4, seats.start), seats.stop - 1)
        # Choosing a preset asks the server for the options it sets (in the chosen game) and
        # swaps them in; choosing another game redraws the form with that game's rules.
        self.fields["preset"].widget.attrs.update(
            {
                "hx-get": reverse("games:table_create"),
                "hx-trigger": "change",
                "hx-target": "#rule-options",
                "hx-swap": "outerHTML",
                "hx-include": "[name='game_type']",
            }
        )
        self.fields["game_type"].widget.attrs.update(
            {
                "hx-get": reverse("games:table_create"),
                "hx-trigger": "change",
                "hx-target": "#table-form",
                "hx-select": "#table-form",
                "hx-swap": "outerHTML",
            }
        )

    def clean(self) -> dict[str, Any]:
        # Django's clean returns cleaned_data; its stub allows None for overrides that return
        # nothing, so the dict is read from the form.
        super().clean()
        data = self.cleaned_data
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
        if data.get("rated") and bots:
            self.add_error(
                "rated",
                _("A rated table is for people only: choose no bots, or untick Rated."),
            )
        pace, seconds = data.get("pace"), data.get("move_seconds")
        if pace == Table.Pace.SLOW and seconds not in dict(SLOW_MOVE_TIMES):
            self.add_error(
                "move_seconds",
                _(
                    "A slow game needs a time per move of 1 hour, 12 hours, or 1, 2, 3, 5, 7, "
                    "10 or 14 days."
                ),
            )
        if pace == Table.Pace.LIVE and seconds not in dict(LIVE_MOVE_TIMES):
            self.add_error(
                "move_seconds",
                _("A live game has no time limit or 20 seconds to 5 minutes a move."),
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

    @property
    def rule_fields(self) -> tuple[str, ...]:
        return self.presentation.rule_fields

    @property
    def rule_options_template(self) -> str:
        return self.presentation.rule_options_template

    def rule_options(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.rule_fields}

    def create_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for services.create_table (the owner aside)."""
        data = self.cleaned_data
        return {
            "game_type": self.game.key,
            "preset": data["preset"],
            "options": self.rule_options(),
            "seat_count": data["seat_count"],
            "bots": [data["bot_level"]] * data["bots"],
            "pace": data["pace"],
            "move_seconds": data["move_seconds"],
            "is_public": data["visibility"] == PUBLIC,
            "weekends_off": bool(data.get("weekends_off")),
            "on_timeout": data.get("on_timeout") or None,
            "handover_after": data.get("handover_after", 3),
            "vacation_allowed": not data.get("forbid_vacation"),
            "rated": bool(data.get("rated")),
            "bot_speed": data.get("bot_speed") or Table.BotSpeed.NORMAL,
        }
