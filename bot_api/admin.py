from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from bot_api import tokens
from bot_api.models import BotPolicy, BotToken, Invitation, TournamentBotPolicy


@admin.register(BotToken)
class BotTokenAdmin(admin.ModelAdmin):
    # Only the hash is stored, and the admin shows not even that.
    list_display = ("name", "user", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    list_filter = ("scope",)
    search_fields = ("name", "user__username")
    fields = ("user", "name", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    readonly_fields = fields
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a token is made by its owner, who alone sees it once

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[BotToken]) -> None:
        for token in queryset:
            tokens.revoke(token)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("pk", "table", "bot", "invited_by", "status", "created_at")
    list_filter = ("status",)
    raw_id_fields = ("table", "bot", "invited_by")


@admin.register(BotPolicy)
class BotPolicyAdmin(admin.ModelAdmin):
    list_display = ("table", "rated_with_bots")
    raw_id_fields = ("table",)


@admin.register(TournamentBotPolicy)
class TournamentBotPolicyAdmin(admin.ModelAdmin):
    list_display = ("tournament", "admit_bot_accounts")
    raw_id_fields = ("tournament",)
