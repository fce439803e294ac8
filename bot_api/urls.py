from __future__ import annotations

from django.urls import path

from bot_api import api_views, pages

app_name = "bot_api"

urlpatterns = [
    # The API (bearer tokens, JSON).
    path("api/bot/account", api_views.account, name="account"),
    path("api/bot/stream/event", api_views.event_stream, name="event_stream"),
    path("api/bot/game/<int:game_id>/stream", api_views.game_stream, name="game_stream"),
    path("api/bot/game/<int:game_id>/move", api_views.move, name="move"),
    path("api/bot/invitation/<int:invite_id>/accept", api_views.accept, name="accept"),
    path("api/bot/invitation/<int:invite_id>/decline", api_views.decline, name="decline"),
    path("api/bot/table/<int:table_id>/join", api_views.join, name="join"),
    # Pages for people: the owner's bot account and tokens; inviting a bot to a table.
    path("profile/bot/", pages.bot_account, name="bot_account"),
    path("profile/bot/tokens/<int:token_id>/revoke", pages.revoke_token, name="revoke"),
    path("tables/<int:table_id>/invite-bot/", pages.invite_bot, name="invite"),
]
