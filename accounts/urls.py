from __future__ import annotations

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.profile, name="profile"),
    path("vacation/", views.toggle_vacation, name="vacation"),
]
