"""Forms of the organiser's admin: the tournament's settings checked against the game's own
rules, and the small forms of the confirmation pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import services as games
from games.models import Table
from remi_site.form_fields import (
    DecimalNumberField,
    WholeNumberField,
    ascii_formfield,
    choice_field,
)
from tournaments import results, services
from tournaments.models import Tournament


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        formfield_callback = ascii_formfield
        fields = (
            "name",
            "description",
            "game_type",
            "preset",
            "options",
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

    def clean(self) -> dict[str, Any]:
        # Django's clean returns cleaned_data; its stub allows None for overrides that return
        # nothing, so the dict is read from the form.
        super().clean()
        data = self.cleaned_data
        seats = data.get("seat_count")
        game_type = data.get("game_type")
        if game_type and seats:
            options = dict(data.get("options") or {})
            options["series_games"] = data.get("games_per_match")
            options["target_score"] = data.get("target_score")
            try:
                games.checked_rules(game_type, data.get("preset") or None, options, seats)
            except games.TableError as error:
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
