"""URLs of the chat app."""

from __future__ import annotations

from django.urls import path

from chat import views
from games import converters  # noqa: F401  (registers <id:>)

app_name = "chat"

urlpatterns = [
    path("games/<id:pk>/chat/", views.post, name="post"),
    path("games/<id:pk>/chat/mute/<id:user_id>/", views.mute, name="mute"),
]
