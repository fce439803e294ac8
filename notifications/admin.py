from __future__ import annotations

from django.contrib import admin

from notifications.models import Notice, Preferences


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "reminder_email", "digest_hour")
    raw_id_fields = ("user",)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("kind", "user", "game", "seat", "turn", "day", "sent_at", "emailed")
    list_filter = ("kind", "emailed")
    raw_id_fields = ("user", "game")
