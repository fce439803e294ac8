from __future__ import annotations

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("my-games/", views.my_games, name="my_games"),
]
