"""Top-level URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from accounts.views import choose_language
from remi_site import health, metrics, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("language/", choose_language, name="set_language"),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("chat.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("tournaments.urls")),
    path("", include("reviews.urls")),
    path("", include("bot_api.urls")),
    path("admin/", admin.site.urls),
]
