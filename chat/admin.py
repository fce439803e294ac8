"""Moderation: find and remove messages, ban a writer from the chat."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from chat import services
from chat.models import ChatBan, ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "author", "game", "room", "phrase", "text", "removed_at")
    list_filter = ("room", ("removed_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username", "author__display_name")
    list_select_related = ("author", "game")
    date_hierarchy = "created_at"
    actions = ("remove_messages",)
    # What players wrote is evidence, not something to edit.
    readonly_fields = ("game", "author", "room", "phrase", "text", "created_at", "removed_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Remove the selected messages (hidden from every page at once)")
    def remove_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        count = services.remove(queryset, timezone.now())
        messages.success(request, f"{count} message(s) removed.")


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin):
    list_display = ("user", "reason", "banned_by", "created_at")
    search_fields = ("user__username", "reason")
    autocomplete_fields = ("user",)
    readonly_fields = ("banned_by", "created_at")

    def save_model(self, request: HttpRequest, obj: ChatBan, form, change: bool) -> None:
        # The admin's pages are for signed-in staff only: is_authenticated is for mypy.
        if not change and request.user.is_authenticated:
            obj.banned_by = request.user
        super().save_model(request, obj, form, change)
