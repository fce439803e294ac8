"""The review's Celery task: keyed by the game, idempotent (``services.compute`` claims the
row with a conditional update, so a duplicate or late message does nothing)."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from . import services


@shared_task(
    autoretry_for=(DatabaseError, ConnectionError),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
    ignore_result=True,
)
def compute_review(game_id: int) -> bool:
    return services.compute(game_id)
