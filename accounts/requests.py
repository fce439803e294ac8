"""Request types for the views' annotations: what the middleware adds to a request."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxRequest(HttpRequest):
    """A request that went through django-htmx's middleware (every request here does)."""

    htmx: HtmxDetails


class SignedInRequest(HtmxRequest):
    """A request to a view behind ``login_required``: its user has signed in."""

    user: User
