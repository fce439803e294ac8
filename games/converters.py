"""URL converters for the games app's HTTP and WebSocket routes."""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    """A database id: ASCII digits, at most 18 of them, so it always fits a 64-bit column
    (Django's ``int`` converter takes any length, and an over-long id failed in the database
    instead of giving a 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
