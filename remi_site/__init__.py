"""Django project package for the Remi site."""

from __future__ import annotations

# Importing the Celery app here makes `@shared_task` functions bind to it in every process
# that loads Django, not only in the worker.
from remi_site.celery import app as celery_app

__all__ = ["celery_app"]
