"""Admin for tables, seats, games and the (read-only) action log: tournaments are run here.

Games are made by the site (starting a table, dealing the next game), never typed in: the
admin reads them and clears flags.  Tables are added through the lobby's own form and service
(``games/admin_forms.py``).  What a game hides from its players — racks, the wall, the seed
(``Game.state``, the table's series), the tiles a move names, a seat's own arrangement of its
rack — stays hidden here while the game is being played, unless the user has the
``view_hidden_information`` permission: an organiser who also plays must not see racks.
Nor can such a user filter, search or sort a list by them: the admin site honours only the
filters declared here (``remi_site/admin_site.py``), and the models name their hidden fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest

from games.admin_forms import NewTableAdminForm
from games.clocks.flags import clear_flag
from games.engine.core.numbers import parse_natural
from games.models import Action, Game, Seat, SeatClock, Table
from remi_site.admin_site import HIDDEN_INFORMATION

if TYPE_CHECKING:
    # The stubs' name for what get_fieldsets returns (a list or a tuple of fieldsets).
    from django.contrib.admin.options import _FieldsetSpec


HIDDEN_NOTE = "Hidden while the game is being played."


def sees_hidden(request: HttpRequest, finished: bool) -> bool:
    """Whether ``request``'s user may see a game's secrets: anyone once it is over."""
    return finished or request.user.has_perm(HIDDEN_INFORMATION)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    # No rack_order: it is the seat's own rack (or its draft of the table) in its order.
    fields = ("position", "user", "bot", "timeouts_in_row", "abandoned_at")
    autocomplete_fields = ("user",)

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple:
        # Who sits where is the engine's seat list once the table started.
        if obj is not None and obj.status != Table.Status.OPEN:
            return ("position", "user", "timeouts_in_row", "abandoned_at")
        return ()

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return obj is not None and obj.status == Table.Status.OPEN

    def has_delete_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return obj is not None and obj.status == Table.Status.OPEN


# Once made, a table's game and rules are what its games were dealt by.
TABLE_SETTLED_FIELDS = (
    "game_type",
    "preset",
    "rules",
    "seat_count",
    "status",
    "invite_code",
    "created_at",
    "updated_at",
)

# The series as stored (with the seed every game is dealt from), or a note in its place.
SERIES_FIELDS = ("series", "series_hidden")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "preset",
        "seat_count",
        "pace",
        "move_seconds",
        "status",
        "owner",
        "created_at",
    )
    list_filter = ("status", "pace", "game_type", "is_public")
    search_fields = ("id", "owner__username", "invite_code")
    inlines = (SeatInline,)

    def get_form(
        self, request: HttpRequest, obj: Table | None = None, change: bool = False, **kwargs: Any
    ) -> type[ModelForm]:
        if obj is None:
            return NewTableAdminForm
        return super().get_form(request, obj, change, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"owner": request.user.pk, **super().get_changeform_initial_data(request)}

    def get_fieldsets(self, request: HttpRequest, obj: Table | None = None) -> _FieldsetSpec:
        if obj is None:
            form = NewTableAdminForm(request.POST or None, initial=dict(request.GET.items()))
            return [(None, {"fields": [*form.field_names()]})]
        return super().get_fieldsets(request, obj)

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> list:
        fields = [f for f in super().get_fields(request, obj) if f not in SERIES_FIELDS]
        if obj is not None:
            fields.append("series" if self._open_book(request, obj) else "series_hidden")
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple:
        if obj is None:
            return ()
        return (*TABLE_SETTLED_FIELDS, *SERIES_FIELDS)

    def get_inlines(self, request: HttpRequest, obj: Table | None) -> tuple:
        return self.inlines if obj is not None else ()

    def save_form(self, request: HttpRequest, form: ModelForm, change: bool) -> Any:
        if change:
            return super().save_form(request, form, change)
        assert isinstance(form, NewTableAdminForm)  # get_form's for a new table
        return form.create()  # seats, bots and rules, as the lobby makes them

    def save_model(self, request: HttpRequest, obj: Table, form: ModelForm, change: bool) -> None:
        if change:  # a new table was saved by the service already
            super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: ModelForm, formsets, change: bool) -> None:
        if change:
            super().save_related(request, form, formsets, change)

    @admin.display(description="series")
    def series_hidden(self, table: Table) -> str:
        # The series holds the seed every game of the table is dealt from.
        return HIDDEN_NOTE

    @staticmethod
    def _open_book(request: HttpRequest, table: Table) -> bool:
        return sees_hidden(request, table.status == Table.Status.FINISHED)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "user", "bot", "timeouts_in_row", "abandoned_at")
    list_filter = ("bot",)
    search_fields = ("user__username", "table__id")
    fields = ("table", "position", "user", "bot", "timeouts_in_row", "abandoned_at")
    readonly_fields = ("table", "position", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # people sit down through the lobby, bots with the table


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    can_delete = False

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple:
        if obj is not None and sees_hidden(request, obj.status == Game.Status.FINISHED):
            return ("version", "seat", "notation", "cause", "created_at")
        return ("version", "seat", "cause", "created_at")

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple:
        return self.get_fields(request, obj)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class FlaggedFilter(admin.SimpleListFilter):
    title = "flagged for the admin"
    parameter_name = "flagged"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        return [("yes", "Flagged"), ("no", "Not flagged")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "yes":
            return queryset.filter(flagged_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(flagged_at__isnull=True)
        return queryset


class SeatClockInline(admin.TabularInline):
    model = SeatClock
    extra = 0
    can_delete = False
    fields = ("seat", "turn", "started_at", "deadline", "due_at", "paused_at", "timed_out")
    readonly_fields = fields
    ordering = ("-turn",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[SeatClock]:
        return super().get_queryset(request).filter(ended_at__isnull=True)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


# Every column the admin shows of a game, read-only: a game changes only by moves through
# services.play, and by the flag actions below.
GAME_FIELDS = (
    "table",
    "game_of_series",
    "status",
    "phase",
    "version",
    "to_act",
    "deadline",
    "waiting_for_bot",
    "engine_version",
    "scores",
    "created_at",
    "updated_at",
    "finished_at",
    "flagged_at",
    "flagged_reason",
)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "table",
        "game_of_series",
        "status",
        "version",
        "to_act",
        "deadline",
        "flagged_at",
        "flagged_reason",
    )
    list_filter = (FlaggedFilter, "status")
    search_fields = ("id", "table__id")
    inlines = (SeatClockInline, ActionInline)
    actions = ("clear_flags",)

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple:
        if obj is not None and sees_hidden(request, obj.status == Game.Status.FINISHED):
            return (*GAME_FIELDS, "state")
        return (*GAME_FIELDS, "state_hidden")

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are dealt by starting a table or by "Deal the next game"

    @admin.display(description="game", ordering="number")
    def game_of_series(self, game: Game) -> int:
        # People count games from 1, as the game page does; ``number`` counts from 0.
        return game.ordinal

    @admin.display(description="state (racks, wall, seed)")
    def state_hidden(self, game: Game) -> str:
        return HIDDEN_NOTE

    @admin.action(description="Clear the flag: let the bots and clocks try these games again")
    def clear_flags(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        flagged = list(queryset.filter(flagged_at__isnull=False).values_list("pk", flat=True))
        for game_id in flagged:
            clear_flag(game_id)
        self.message_user(request, f"Cleared the flag of {len(flagged)} game(s).", messages.SUCCESS)


class OneGameFilter(admin.SimpleListFilter):
    """The moves of one game, ``?game__id__exact=<id>`` as Django's own related filter spells
    it; the sidebar offers no list of every game ever played, only the one asked for."""

    title = "game"
    parameter_name = "game__id__exact"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        # Django applies a filter only when it has a choice to show: the one asked for.
        return [(self.value(), self.value())] if self.value() is not None else []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Action]) -> QuerySet[Action]:
        value = self.value()
        if value is None:
            return queryset
        game_id = parse_natural(value)
        if game_id is None:
            raise IncorrectLookupParameters(f"No game {value[:40]!r}")
        return queryset.filter(game_id=game_id)


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """The action log is append-only: the admin may read it, never change it."""

    list_filter = (OneGameFilter,)
    list_select_related = ("game",)
    search_fields = ("game__id",)

    def get_list_display(self, request: HttpRequest) -> tuple:
        move = "notation" if request.user.has_perm(HIDDEN_INFORMATION) else "move_when_over"
        return ("game", "version", "seat", move, "cause", "created_at")

    def get_fields(self, request: HttpRequest, obj: Action | None = None) -> tuple:
        shown = ("game", "version", "seat", "cause", "created_at")
        if obj is not None and sees_hidden(request, obj.game.status == Game.Status.FINISHED):
            return (*shown, "notation", "events")
        return (*shown, "move_when_over")

    def get_readonly_fields(self, request: HttpRequest, obj: Action | None = None) -> tuple:
        return self.get_fields(request, obj)

    @admin.display(description="move")
    def move_when_over(self, action: Action) -> str:
        # A move may name tiles only its player knows (a doubla's pair) until the game ends.
        if action.game.status == Game.Status.FINISHED:
            return action.notation
        return HIDDEN_NOTE

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
