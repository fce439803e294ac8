"""URLs of the games app: the lobby side (tables) and the game side (play, replay)."""

from __future__ import annotations

from django.urls import path

from games import converters, rules_pages  # noqa: F401  (converters registers <id:>)
from games.play import deal_views, views
from games.tables import lobby

app_name = "games"

urlpatterns = [
    # Lobby and tables (games/tables/lobby.py)
    path("lobby/", lobby.lobby, name="lobby"),
    path("tables/new/", lobby.create_table, name="table_create"),
    path("tables/<id:pk>/", lobby.table_detail, name="table"),
    path("tables/<id:pk>/join/", lobby.join, name="table_join"),
    path("tables/<id:pk>/leave/", lobby.leave, name="table_leave"),
    path("tables/<id:pk>/start/", lobby.start, name="table_start"),
    path("tables/<id:pk>/take-back/", lobby.take_back, name="table_take_back"),
    path("tables/<id:pk>/rematch/", lobby.rematch, name="table_rematch"),
    path("join/<str:code>/", lobby.join_by_invite, name="invite"),
    path("games/mine/", lobby.my_games, name="my_games"),
    # A game (games/play/views.py)
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/act/", views.act, name="game_act"),
    path("games/<id:pk>/rack/", views.arrange_rack, name="game_rack"),
    path("games/<id:pk>/draft/", views.draft, name="game_draft"),
    path("games/<id:pk>/meld-total/", views.meld_total, name="game_meld_total"),
    path("games/<id:pk>/next/", lobby.next_game, name="game_next"),
    path("games/<id:pk>/replay/", views.replay, name="game_replay"),
    path("games/<id:pk>/deal/", views.watchable(deal_views.verify_deal), name="game_deal"),
    path("fair-deals/", deal_views.deal_explained, name="deal_explained"),
    # How to play each game (games/rules_pages.py)
    path("rules/", rules_pages.rules_index, name="rules"),
    path("rules/<str:key>/", rules_pages.rules_game, name="rules_game"),
]
