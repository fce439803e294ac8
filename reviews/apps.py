from __future__ import annotations

from django.apps import AppConfig


class ReviewsConfig(AppConfig):
    """The review of a finished game by the exact planners, and the hint at casual tables."""

    name = "reviews"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.signals import game_finished

        from . import services

        game_finished.connect(services.review_when_finished, dispatch_uid="review-finished")
