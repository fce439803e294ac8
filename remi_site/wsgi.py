"""WSGI entry point, for plain-HTTP tools; the site itself is served over ASGI by daphne."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

application = get_wsgi_application()
