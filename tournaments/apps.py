from __future__ import annotations

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments and ratings"

    def ready(self) -> None:
        from games.play.turn_events import turns_changed
        from games.signals import game_finished
        from tournaments import live, ratings, services

        # Sent inside the transaction that finishes the game, so a rating moves with it,
        # and a tournament match's result with its table's series.
        game_finished.connect(ratings.rate_finished_game, dispatch_uid="ratings-rate")
        game_finished.connect(services.record_table_result, dispatch_uid="tournament-result")
        turns_changed.connect(live.on_turns_changed, dispatch_uid="tournament-live")
