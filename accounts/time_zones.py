"""Players' time zones: IANA names, checked against the zone database Python ships with."""

from __future__ import annotations

from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

DEFAULT_TIME_ZONE = "Europe/Bucharest"


@cache
def zone_names() -> tuple[str, ...]:
    """Every zone a player may choose, sorted (for the profile's list)."""
    return tuple(sorted(available_timezones()))


def validate_time_zone(value: str) -> None:
    # The set of names, not ZoneInfo(value) alone: ZoneInfo also opens file paths such as
    # "../../etc/x" relative to the zone directory, and takes names like "localtime".
    if value not in zone_names():
        raise ValidationError(
            _("“%(value)s” is not a time zone name such as Europe/Bucharest."),
            params={"value": value[:64]},
            code="unknown-time-zone",
        )
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidationError(
            _("“%(value)s” is not a time zone name such as Europe/Bucharest."),
            params={"value": value[:64]},
            code="unknown-time-zone",
        ) from None
