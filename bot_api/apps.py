from __future__ import annotations

from django.apps import AppConfig


class BotApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bot_api"
    verbose_name = "Bot API"
