from __future__ import annotations

from django.urls import path

from notifications import notice_views, views

app_name = "notifications"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notices/", notice_views.page_notices, name="notices"),
]
