"""URLs of a game's review and hint (beside the game's own under /games/<id>/)."""

from __future__ import annotations

from django.urls import path

from games import converters  # noqa: F401  (registers <id:>)

from . import views

app_name = "reviews"

urlpatterns = [
    path("games/<id:pk>/review/", views.review, name="review"),
    path("games/<id:pk>/review/step/", views.review_step, name="review_step"),
    path("games/<id:pk>/review/hints/", views.hint_counts, name="hint_counts"),
    path("games/<id:pk>/hint/", views.hint, name="hint"),
]
