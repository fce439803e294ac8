from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.sessions.models import Session
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User
from accounts.sockets import close_user_sockets


def end_sessions_of(user_ids: set[int]) -> int:
    """Delete the live sessions of these users; returns how many ended."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) in {str(pk) for pk in user_ids}
    ]
    # Through the session engine, which also forgets a session it keeps in the cache: a
    # row deleted alone would leave the cached copy logged in.
    store = import_module(settings.SESSION_ENGINE).SessionStore
    for key in ended:
        store().delete(key)
    return len(ended)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    # Names only (what the registrations' player picker searches): never e-mail addresses.
    search_fields = ("username", "display_name")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),  # None only in the stubs: Django sets them
        (
            "Remi",
            {
                "fields": (
                    "display_name",
                    "preferred_language",
                    "email_on_turn",
                    "turn_sound",
                    "turn_notification",
                    "card_colours",
                    # Staff flag (or unflag) a bot account here; its owner can from the
                    # profile (bot_api/pages.py).
                    "is_bot",
                )
            },
        ),
    )
    list_display = ("username", "email", "display_name", "is_staff", "is_bot", "date_joined")
    list_filter = (*DjangoUserAdmin.list_filter, "is_bot")
    actions = ("end_sessions",)

    @admin.action(description="Sign the selected users out everywhere (sessions and live pages)")
    def end_sessions(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        user_ids = set(queryset.values_list("pk", flat=True))
        ended = end_sessions_of(user_ids)
        for user_id in user_ids:
            close_user_sockets(user_id)
        self.message_user(
            request,
            f"Ended {ended} session(s) of {len(user_ids)} user(s);"
            " their open pages were disconnected.",
            messages.SUCCESS,
        )
