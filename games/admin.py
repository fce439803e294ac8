"""Admin for tables, seats, games and the (read-only) action log: tournaments are run here."""

from __future__ import annotations

from django.contrib import admin

from games.models import Action, Game, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot")
    autocomplete_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game_type",
        "preset",
        "seat_count",
        "pace",
        "status",
        "owner",
        "created_at",
    )
    list_filter = ("status", "pace", "game_type", "is_public")
    search_fields = ("id", "owner__username", "invite_code")
    readonly_fields = ("invite_code", "series", "created_at", "updated_at")
    inlines = (SeatInline,)


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "position", "user", "bot")
    list_filter = ("bot",)
    search_fields = ("user__username", "table__id")


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    can_delete = False
    fields = ("version", "seat", "notation", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "number", "status", "version", "turn", "deadline")
    list_filter = ("status",)
    search_fields = ("id", "table__id")
    readonly_fields = ("state", "version", "scores", "created_at", "finished_at")
    inlines = (ActionInline,)


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    """The action log is append-only: the admin may read it, never change it."""

    list_display = ("game", "version", "seat", "notation", "created_at")
    search_fields = ("game__id",)
    readonly_fields = ("game", "version", "seat", "notation", "events", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
