from __future__ import annotations

from django.urls import path

from games import converters  # noqa: F401  (registers <id:>)
from tournaments import tournament_views, views

app_name = "tournaments"

urlpatterns = [
    path("ratings/", views.leaderboard_default, name="leaderboards"),
    path("ratings/<slug:game_type>/", views.leaderboard_of, name="leaderboard"),
    path("tournaments/", tournament_views.tournament_list, name="list"),
    path("tournaments/<id:pk>/", tournament_views.tournament_detail, name="detail"),
    path("tournaments/<id:pk>/register/", tournament_views.register, name="register"),
    path("tournaments/<id:pk>/withdraw/", tournament_views.withdraw, name="withdraw"),
]
