"""Site-wide Celery tasks."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_CACHE_KEY = "celery-beat-heartbeat"


@shared_task(ignore_result=True)
def record_heartbeat() -> str:
    """Scheduled by beat, run by a worker: proves the scheduler-to-worker path works."""
    stamp = timezone.now().isoformat()
    # Kept for a day: long enough to see when beat stopped, short enough not to linger forever.
    cache.set(HEARTBEAT_CACHE_KEY, stamp, timeout=24 * 60 * 60)
    return stamp
