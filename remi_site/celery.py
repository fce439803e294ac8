"""The Celery application: the worker and beat run ``celery -A remi_site ...``."""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_prerun

from remi_site import json_logs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

app = Celery("remi_site")
# Every CELERY_* Django setting configures Celery, so the broker URL comes from the same
# REDIS_URL as the channel layer and the cache.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["remi_site"])

# Each task's log lines carry only the ids bound while it runs (remi_site/json_logs.py).
task_prerun.connect(json_logs.start_afresh, weak=False)
