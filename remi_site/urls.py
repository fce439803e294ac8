"""Top-level URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from remi_site import health, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
]
