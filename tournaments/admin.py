from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    AuditEntry,
    Match,
    Rating,
    RatingChange,
    Registration,
    Tournament,
)
from tournaments.tournament_admin import (
    AuditEntryAdmin,
    MatchAdmin,
    RegistrationAdmin,
    TournamentAdmin,
)

admin.site.register(Tournament, TournamentAdmin)
admin.site.register(Registration, RegistrationAdmin)
admin.site.register(Match, MatchAdmin)
admin.site.register(AuditEntry, AuditEntryAdmin)


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game_type", "shown", "games", "updated_at")
    list_filter = ("game_type",)
    search_fields = ("user__username", "user__display_name")
    # Ratings move only with finished rated games; the admin reads them.
    readonly_fields = ("user", "game_type", "mu", "sigma", "games", "updated_at")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "game_type", "place", "shown_before", "shown_after")
    list_filter = ("game_type",)
    search_fields = ("user__username",)
    raw_id_fields = ("user", "game")
    readonly_fields = (
        "user",
        "game",
        "game_type",
        "place",
        "mu_before",
        "sigma_before",
        "mu_after",
        "sigma_after",
        "created_at",
    )
