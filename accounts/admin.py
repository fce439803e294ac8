from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        ("Remi", {"fields": ("display_name", "preferred_language", "email_on_turn")}),
    )
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")
