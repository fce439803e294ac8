"""The organiser's admin: tournaments with their registrations, rounds, matches and audit
log, and the actions that run them — every one through ``tournaments.services``.

Actions that decide something for players (a round's pairing, adjudication, an override, a
withdrawal) go through a page that shows what will happen; only its confirm button acts.
Those pages post back to the changelist with the action's name and the selected rows, as
Django's own delete confirmation does, plus a ``step``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.core.numbers import parse_natural
from tournaments import exports, services
from tournaments.forms import (
    AdjudicationRuleForm,
    OverrideForm,
    ReasonForm,
    TournamentForm,
    WithdrawalForm,
    rule_fieldset,
)
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament
from tournaments.ratings import ratings_of
from tournaments.results import RULE_LABELS


def names_of(user_ids: Iterable[int]) -> dict[int, str]:
    users = get_user_model().objects.in_bulk(list(user_ids))
    return {pk: user.public_name for pk, user in users.items()}


def step_page(
    request: HttpRequest,
    model_admin: admin.ModelAdmin,
    template: str,
    action: str,
    selected: Iterable[Any],
    **context: Any,
) -> TemplateResponse:
    """An action's intermediate page; its forms post back to the same action."""
    return TemplateResponse(
        request,
        f"admin/tournaments/{template}",
        {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.model._meta,
            "action": action,
            "selected": [obj.pk for obj in selected],
            "checkbox_name": ACTION_CHECKBOX_NAME,
            **context,
        },
    )


def one_selected(
    model_admin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet
) -> Any | None:
    if queryset.count() != 1:
        model_admin.message_user(request, _("Choose exactly one."), messages.WARNING)
        return None
    return queryset.get()


def reported(
    model_admin: admin.ModelAdmin, request: HttpRequest, work: Callable[[], Any], done: str
) -> bool:
    """Run a service call; say what happened, or why it could not."""
    try:
        work()
    except services.TournamentError as error:
        model_admin.message_user(request, str(error), messages.ERROR)
        return False
    model_admin.message_user(request, done, messages.SUCCESS)
    return True


# --- Inlines --------------------------------------------------------------------------------


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("user",)
    # Withdrawals need the organiser's choice for a running seat: the Registrations list's
    # action asks for it.  Here players are added (and removed before they have played).
    readonly_fields = ("status", "created_at", "withdrawn_at", "rating")
    fields = ("user", "rating", "status", "created_at", "withdrawn_at")

    @admin.display(description=gettext_lazy("rating"))
    def rating(self, obj: Registration) -> str:
        if not obj.pk:
            return ""
        rating = ratings_of([obj.user_id], obj.tournament.game_type).get(obj.user_id)
        return str(rating.shown) if rating else "1000?"


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "status", "started_at", "deadline", "needs_adjudication", "bye_names")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("sitting out"))
    def bye_names(self, obj: Round) -> str:
        return ", ".join(names_of(obj.byes).values())


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    can_delete = False
    fields = (
        "round",
        "table_number",
        "player_names",
        "table_link",
        "status",
        "places",
        "scores",
        "adjudicated",
        "overridden",
    )
    readonly_fields = fields
    ordering = ("round__number", "index")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("table"))
    def table_number(self, obj: Match) -> int:
        return obj.index + 1

    @admin.display(description=gettext_lazy("players"))
    def player_names(self, obj: Match) -> str:
        names = names_of(obj.players)
        return ", ".join(names.get(p, "?") for p in obj.players)

    @admin.display(description=gettext_lazy("game"))
    def table_link(self, obj: Match) -> str:
        if obj.table is None:
            return ""
        return format_html('<a href="{}">{}</a>', obj.table.get_absolute_url(), obj.table)


class AuditInline(admin.TabularInline):
    model = AuditEntry
    extra = 0
    can_delete = False
    fields = ("created_at", "actor", "kind", "what", "reason")
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("audit log")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- Tournaments ----------------------------------------------------------------------------


class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "name",
        "game_type",
        "format",
        "status",
        "current_round",
        "players",
        "to_adjudicate",
        "rated",
    )
    list_filter = (
        "status",
        "format",
        "game_type",
        "pace",
        "rated",
        "round_set__needs_adjudication",
    )
    search_fields = ("name", "description", "organiser__username")
    readonly_fields = ("organiser", "status", "current_round", "created_at", "updated_at")
    inlines = (RegistrationInline, RoundInline, MatchInline, AuditInline)
    actions = (
        "open_registration",
        "close_registration",
        "start_next_round",
        "adjudicate",
        "recompute_standings",
        "export_standings",
        "export_pairings",
        "cancel",
    )

    def get_form(
        self,
        request: HttpRequest,
        obj: Tournament | None = None,
        change: bool = False,
        **kwargs: Any,
    ) -> Any:
        # The form's own fields (Meta.fields): the rules' fields are added per game by the
        # form itself, and a model form cannot be asked for fields its model lacks.
        kwargs["fields"] = None
        return super().get_form(request, obj, change, **kwargs)

    def get_fieldsets(self, request: HttpRequest, obj: Tournament | None = None) -> Any:
        form = self.get_form(request, obj)(
            request.POST or None, instance=obj, initial=self.get_changeform_initial_data(request)
        )
        rules = rule_fieldset(form)
        settings = [name for name in form.fields if name not in rules]
        return [
            (None, {"fields": [*settings, *self.get_readonly_fields(request, obj)]}),
            (_("Rules"), {"fields": rules}),
        ]

    @admin.display(description=gettext_lazy("players"))
    def players(self, obj: Tournament) -> int:
        return obj.registrations.filter(status=Registration.Status.ACTIVE).count()

    @admin.display(description=gettext_lazy("deadline passed"), boolean=True)
    def to_adjudicate(self, obj: Tournament) -> bool:
        """A round the beat sweep flagged: its deadline passed with matches unfinished."""
        return obj.round_set.filter(status=Round.Status.PLAYING, needs_adjudication=True).exists()

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        # The admin's pages are for signed-in staff only: is_authenticated is for mypy.
        if not change and request.user.is_authenticated:
            obj.organiser = request.user  # whoever creates it runs it
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        if formset.model is not Registration:
            return super().save_formset(request, form, formset, change)
        # Added and removed players are organiser changes: through the services (audited).
        # The admin's own change message reads these; the audit log is the record here.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        tournament = form.instance
        for inline_form in formset.forms:
            if not inline_form.has_changed() or not inline_form.cleaned_data:
                continue
            user = inline_form.cleaned_data.get("user")
            if inline_form.cleaned_data.get("DELETE") and inline_form.instance.pk:
                self._remove(request, tournament, inline_form.instance)
            elif inline_form.instance.pk is None and user is not None:
                reported(
                    self,
                    request,
                    partial(services.add_player, tournament, user, request.user),
                    _("%(name)s is registered.") % {"name": user.public_name},
                )
        return None

    def _remove(self, request: HttpRequest, tournament: Tournament, reg: Registration) -> None:
        reported(
            self,
            request,
            lambda: services.remove_player(tournament, reg.user, request.user),
            _("%(name)s is removed.") % {"name": reg.user.public_name},
        )

    @admin.action(description=gettext_lazy("Open registration"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet) -> None:
        for tournament in queryset:
            reported(
                self,
                request,
                partial(services.open_registration, tournament, request.user),
                _("Registration for %(t)s is open.") % {"t": tournament},
            )

    @admin.action(description=gettext_lazy("Close registration"))
    def close_registration(self, request: HttpRequest, queryset: QuerySet) -> None:
        for tournament in queryset:
            reported(
                self,
                request,
                partial(services.close_registration, tournament, request.user),
                _("Registration for %(t)s is closed.") % {"t": tournament},
            )

    @admin.action(description=gettext_lazy("Start the next round (shows the pairing first)"))
    def start_next_round(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        tournament = one_selected(self, request, queryset)
        if tournament is None:
            return None
        step = request.POST.get("step")
        try:
            round_ = services.propose_round(tournament, request.user)
            if step == "confirm":
                services.confirm_round(round_, request.user)
            elif step == "discard":
                services.discard_proposal(round_, request.user)
        except services.TournamentError as error:
            self.message_user(request, str(error), messages.ERROR)
            return None
        if step == "confirm":
            self.message_user(
                request,
                _("Round %(n)d of %(t)s has started: its tables are seated.")
                % {"n": round_.number, "t": tournament},
                messages.SUCCESS,
            )
            return None
        if step == "discard":
            self.message_user(request, _("The pairing was dropped."), messages.INFO)
            return None
        return step_page(
            request,
            self,
            "confirm_round.html",
            "start_next_round",
            [tournament],
            title=_("Confirm the pairing of round %(n)d") % {"n": round_.number},
            tournament=tournament,
            round=round_,
            tables=exports.pairing_rows(round_),
            byes=list(names_of(round_.byes).values()),
        )

    @admin.action(description=gettext_lazy("Adjudicate the current round's unfinished matches"))
    def adjudicate(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        tournament = one_selected(self, request, queryset)
        if tournament is None:
            return None
        round_ = tournament.round_set.filter(status=Round.Status.PLAYING).first()
        if round_ is None:
            self.message_user(request, _("No round is being played."), messages.WARNING)
            return None
        step = request.POST.get("step")
        rule_form = AdjudicationRuleForm(
            request.POST if step else None, game_type=tournament.game_type
        )
        reason_form = ReasonForm(request.POST if step == "confirm" else None)
        if step == "confirm" and reason_form.is_valid():
            reported(
                self,
                request,
                lambda: services.confirm_adjudication(
                    round_, request.user, reason_form.cleaned_data["reason"]
                ),
                _("The adjudicated results count now."),
            )
            return None
        proposed = []
        if step == "preview" and rule_form.is_valid():
            rule = rule_form.cleaned_data["rule"]
            try:
                proposed = services.propose_adjudication(round_, rule, request.user)
            except services.TournamentError as error:
                self.message_user(request, str(error), messages.ERROR)
                return None
            if not proposed:
                self.message_user(request, _("Every match has finished."), messages.INFO)
                return None
        return step_page(
            request,
            self,
            "adjudicate.html",
            "adjudicate",
            [tournament],
            title=_("Adjudicate round %(n)d") % {"n": round_.number},
            tournament=tournament,
            round=round_,
            rule_form=rule_form,
            reason_form=reason_form,
            proposed=[exports.result_rows(m, m.proposed_result) for m in proposed],
            rule_label=RULE_LABELS.get(request.POST.get("rule", ""), ""),
        )

    @admin.action(description=gettext_lazy("Recompute the standings"))
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet) -> None:
        for tournament in queryset:
            reported(
                self,
                request,
                partial(services.recompute_standings, tournament, request.user),
                _("The standings of %(t)s are recomputed.") % {"t": tournament},
            )

    @admin.action(description=gettext_lazy("Export the standings (CSV)"))
    def export_standings(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        tournament = one_selected(self, request, queryset)
        return exports.standings_csv(tournament) if tournament else None

    @admin.action(description=gettext_lazy("Export the pairings (CSV)"))
    def export_pairings(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        tournament = one_selected(self, request, queryset)
        return exports.pairings_csv(tournament) if tournament else None

    @admin.action(description=gettext_lazy("Cancel the tournament"))
    def cancel(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        if request.POST.get("step") != "confirm":
            return step_page(
                request,
                self,
                "confirm_simple.html",
                "cancel",
                queryset,
                title=_("Cancel these tournaments?"),
                items=[str(t) for t in queryset],
                reason_form=ReasonForm(),
            )
        reason = ReasonForm(request.POST)
        reason.is_valid()
        for tournament in queryset:
            reported(
                self,
                request,
                partial(
                    services.cancel, tournament, request.user, reason.cleaned_data.get("reason", "")
                ),
                _("%(t)s is cancelled.") % {"t": tournament},
            )
        return None


# --- Registrations and matches --------------------------------------------------------------


class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "status", "created_at")
    list_filter = ("status", "tournament__status", "tournament")
    search_fields = ("user__username", "user__display_name", "tournament__name")
    # Organisers pick the player by name (the User admin's search), not by user id.
    autocomplete_fields = ("user",)
    raw_id_fields = ("tournament",)
    readonly_fields = ("status", "withdrawn_at")
    actions = ("withdraw",)

    @admin.action(description=gettext_lazy("Withdraw the selected players…"))
    def withdraw(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        form = WithdrawalForm(request.POST if request.POST.get("step") == "confirm" else None)
        if not form.is_valid():
            return step_page(
                request,
                self,
                "withdraw.html",
                "withdraw",
                queryset,
                title=_("Withdraw players"),
                items=[str(r) for r in queryset],
                form=form,
            )
        for registration in queryset.select_related("tournament", "user"):
            reported(
                self,
                request,
                partial(
                    services.withdraw_player,
                    registration.tournament,
                    registration.user,
                    request.user,
                    running=form.cleaned_data["running"],
                    reason=form.cleaned_data["reason"],
                ),
                _("%(r)s is withdrawn.") % {"r": registration},
            )
        return None


class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "players_shown", "adjudicated", "overridden")
    list_filter = ("status", "adjudicated", "overridden", "tournament")
    search_fields = ("tournament__name",)
    readonly_fields = (
        "tournament",
        "round",
        "index",
        "players",
        "table",
        "status",
        "places",
        "scores",
        "adjudicated",
        "overridden",
        "proposed_result",
        "finished_at",
    )
    actions = ("override_result", "replace_by_bot")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=gettext_lazy("players"))
    def players_shown(self, obj: Match) -> str:
        names = names_of(obj.players)
        return ", ".join(names.get(p, "?") for p in obj.players)

    @admin.action(description=gettext_lazy("Override the result…"))
    def override_result(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        match = one_selected(self, request, queryset)
        if match is None:
            return None
        names = [names_of(match.players).get(p, "?") for p in match.players]
        step = request.POST.get("step")
        form = OverrideForm(request.POST if step else None, names=names)
        if step and form.is_valid():
            if step == "confirm":
                reported(
                    self,
                    request,
                    lambda: services.override_result(
                        match,
                        form.places(),
                        form.scores(),
                        request.user,
                        form.cleaned_data["reason"],
                    ),
                    _("The result of %(m)s is changed.") % {"m": match},
                )
                return None
            return step_page(
                request,
                self,
                "override.html",
                "override_result",
                [match],
                title=_("Confirm the new result of %(m)s") % {"m": match},
                match=match,
                form=form,
                confirming=True,
                before=exports.result_rows(match, match),
                after=exports.result_rows(
                    match, {"places": form.places(), "scores": form.scores()}
                ),
            )
        return step_page(
            request,
            self,
            "override.html",
            "override_result",
            [match],
            title=_("Override the result of %(m)s") % {"m": match},
            match=match,
            form=form,
            confirming=False,
            before=exports.result_rows(match, match),
        )

    @admin.action(description=gettext_lazy("Replace a player by a bot…"))
    def replace_by_bot(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        match = one_selected(self, request, queryset)
        if match is None:
            return None
        names = names_of(match.players)
        chosen = request.POST.get("player", "")
        reason = ReasonForm(request.POST if request.POST.get("step") == "confirm" else None)
        player = parse_natural(chosen)
        if reason.is_valid() and player is not None and player in match.players:
            user = get_user_model().objects.get(pk=player)
            reported(
                self,
                request,
                lambda: services.replace_by_bot(
                    match, user, request.user, reason.cleaned_data["reason"]
                ),
                _("A bot plays %(name)s's seat.") % {"name": user.public_name},
            )
            return None
        return step_page(
            request,
            self,
            "replace.html",
            "replace_by_bot",
            [match],
            title=_("Replace a player of %(m)s by a bot") % {"m": match},
            match=match,
            players=[(p, names.get(p, "?")) for p in match.players],
            form=reason,
        )


class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "tournament", "actor", "kind", "what", "reason")
    list_filter = ("kind", "tournament")
    search_fields = ("what", "reason", "tournament__name", "actor__username")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
