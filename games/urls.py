"""URLs of the games app: the lobby side (tables) and the game side (play, replay)."""

from __future__ import annotations

from django.urls import path

from games import lobby, views

app_name = "games"

urlpatterns = [
    # Lobby and tables (games/lobby.py)
    path("lobby/", lobby.lobby, name="lobby"),
    path("tables/new/", lobby.create_table, name="table_create"),
    path("tables/<int:pk>/", lobby.table_detail, name="table"),
    path("tables/<int:pk>/join/", lobby.join, name="table_join"),
    path("tables/<int:pk>/leave/", lobby.leave, name="table_leave"),
    path("tables/<int:pk>/start/", lobby.start, name="table_start"),
    path("join/<str:code>/", lobby.join_by_invite, name="invite"),
    path("games/mine/", lobby.my_games, name="my_games"),
    # A game (games/views.py)
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/act/", views.act, name="game_act"),
    path("games/<int:pk>/rack/", views.arrange_rack, name="game_rack"),
    path("games/<int:pk>/next/", views.next_game, name="game_next"),
    path("games/<int:pk>/replay/", views.replay, name="game_replay"),
]
