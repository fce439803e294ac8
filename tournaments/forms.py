"""Forms of the organiser's admin: the tournament's settings checked against the game's own
rules, and the small forms of the confirmation pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Table
from games.presenters import presenter_for
from games.tables import lifecycle
from games.tables.forms import game_for, preset_choices
from remi_site.form_fields import (
    DecimalNumberField,
    WholeNumberField,
    ascii_formfield,
    choice_field,
)
from tournaments import results, services
from tournaments.models import Tournament

# The rule options' fields are named so they can meet no field of the tournament's own (its
# games per match and target score stand for the game's series options).
RULE_PREFIX = "rule_"
RULES_OF = "rules_of"
SERIES_OPTIONS = frozenset({"series_games", "target_score"})


def rule_option_names(game_type: str) -> tuple[str, ...]:
    """The lobby's rule options of ``game_type`` that a tournament sets through its rules."""
    names = presenter_for(game_type).rule_fields
    return tuple(name for name in names if name not in SERIES_OPTIONS)


def rules_with(game: Any, preset: str, options: dict[str, Any]) -> Any:
    """``preset``'s rules with the stored ``options`` over them; the preset's own when those no
    longer fit (a stored option the game has since dropped)."""
    base = game.dump_rules(game.presets[preset])
    try:
        return game.load_rules({**base, **options})
    except (TypeError, ValueError):
        return game.presets[preset]


def rule_fieldset(form: forms.Form) -> list[str]:
    """The names of ``form``'s rules fields, in the order the lobby shows them."""
    return ["preset", *(n for n in form.fields if n.startswith(RULE_PREFIX)), RULES_OF]


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        formfield_callback = ascii_formfield
        fields = (
            "name",
            "description",
            "game_type",
            "preset",
            "games_per_match",
            "target_score",
            "pace",
            "move_seconds",
            "vacation_allowed",
            "round_days",
            "seat_count",
            "format",
            "rounds",
            "advance",
            "registration_opens_at",
            "registration_closes_at",
            "min_players",
            "max_players",
            "rated",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The rules are the lobby's own widgets for the game the page shows (RULES_OF says
        # which, so a post is read against the fields it was drawn with), not raw JSON.
        instance_game = self.instance.game_type if self.instance.pk else None
        shown = self.data.get(RULES_OF) if self.is_bound else None
        self.rules_game = game_for(shown or instance_game or self.initial.get("game_type"))
        game, presentation = self.rules_game, presenter_for(self.rules_game.key)
        self.fields["preset"] = forms.ChoiceField(
            label=_("Rules"),
            choices=[("", _("The game's usual rules")), *preset_choices(game)],
            required=False,
            help_text=_(
                "The options below change the chosen rules. After choosing other rules or "
                "another game, save once: the options then show what they set."
            ),
        )
        self.fields[RULES_OF] = forms.CharField(widget=forms.HiddenInput, required=False)
        self.initial[RULES_OF] = game.key
        fields = presentation.form_fields()
        preset = self.initial.get("preset") or game.default_preset
        if preset not in game.presets:
            preset = game.default_preset
        saved = dict(self.instance.options or {}) if instance_game == game.key else {}
        shown_values = presentation.rule_options(rules_with(game, preset, saved))
        for name in rule_option_names(game.key):
            field = fields[name]
            field.required = False
            self.fields[RULE_PREFIX + name] = field
            self.initial[RULE_PREFIX + name] = shown_values[name]

    def rule_option_changes(self, data: dict[str, Any]) -> dict[str, Any]:
        """The options to store: those the organiser set apart from the chosen rules.

        An option left as the page showed it keeps what was stored, so choosing other rules
        brings their options unless one was changed on purpose; a post without the rules'
        fields (or drawn for another game) changes no option of this game."""
        game = self.rules_game
        kept = dict(self.instance.options or {}) if self.instance.game_type == game.key else {}
        if self.data.get(RULES_OF) != game.key or data.get("game_type") != game.key:
            return kept if data.get("game_type") == self.instance.game_type else {}
        preset = data.get("preset") or game.default_preset
        base = presenter_for(game.key).rule_options(game.presets[preset])
        changes = {}
        for name in rule_option_names(game.key):
            key = RULE_PREFIX + name
            if key in self.changed_data:
                if data.get(key) != base[name]:
                    changes[name] = data.get(key)
            elif name in kept:
                changes[name] = kept[name]
        return changes

    def clean(self) -> dict[str, Any]:
        # Django's clean returns cleaned_data; its stub allows None for overrides that return
        # nothing, so the dict is read from the form.
        super().clean()
        data = self.cleaned_data
        game_type = data.get("game_type")
        # Another game was chosen: the rules shown were the old game's.
        other_game = bool(game_type) and game_type != self.rules_game.key
        if other_game and data.get("preset") not in game_for(game_type).presets:
            data["preset"] = ""
        data["options"] = self.instance.options = self.rule_option_changes(data)
        seats = data.get("seat_count")
        if game_type and seats:
            options = dict(data["options"])
            options["series_games"] = data.get("games_per_match")
            options["target_score"] = data.get("target_score")
            try:
                lifecycle.checked_rules(game_type, data.get("preset") or None, options, seats)
            except lifecycle.TableError as error:
                raise forms.ValidationError(str(error)) from None
        if data.get("games_per_match") is None and data.get("target_score") is None:
            self.add_error("games_per_match", _("Set a number of games, a target score or both."))
        if data.get("format") == Tournament.Format.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss tournament needs a number of rounds."))
        if data.get("advance") == 2 and (
            data.get("format") != Tournament.Format.KNOCKOUT or seats != 4
        ):
            self.add_error("advance", _("Two go on only from knockout tables of 4."))
        if data.get("pace") == Table.Pace.SLOW and not data.get("move_seconds"):
            self.add_error("move_seconds", _("A correspondence tournament needs a move clock."))
        least, most = data.get("min_players"), data.get("max_players")
        if least is not None and most is not None and most < least:
            self.add_error("max_players", _("The maximum is below the minimum."))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason (kept in the audit log)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class AdjudicationRuleForm(forms.Form):
    rule = forms.ChoiceField(label=_("Rule"), widget=forms.RadioSelect)

    def __init__(self, *args: Any, game_type: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(rule, results.RULE_LABELS[rule]) for rule in results.rules_for(game_type)]
        choice_field(self, "rule").choices = choices
        self.fields["rule"].initial = choices[0][0]


class WithdrawalForm(ReasonForm):
    running = forms.ChoiceField(
        label=_("A match the player is playing"),
        choices=(
            (services.BOT, _("goes on with a bot in the player's seat")),
            (services.FORFEIT, _("ends now, the player last (forfeit)")),
        ),
        initial=services.BOT,
        widget=forms.RadioSelect,
    )


class OverrideForm(forms.Form):
    """One place and one score per seat of the match, and the reason (required)."""

    reason = forms.CharField(label=_("Reason (kept in the audit log)"), widget=forms.Textarea)

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"place_{seat}"] = WholeNumberField(
                label=_("%(name)s: place") % {"name": name}, min_value=1, max_value=len(names)
            )
            self.fields[f"score_{seat}"] = DecimalNumberField(
                label=_("%(name)s: score") % {"name": name}
            )

    def places(self) -> list[int]:
        return [self.cleaned_data[f"place_{seat}"] for seat in range(len(self.names))]

    def scores(self) -> list[float]:
        return [self.cleaned_data[f"score_{seat}"] for seat in range(len(self.names))]
