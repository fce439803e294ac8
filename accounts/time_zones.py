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


# Offered first: where the site's players mostly are, then the zones people elsewhere ask for.
COMMON_ZONES = (
    "Europe/Bucharest",
    "Europe/Chisinau",
    "Europe/Budapest",
    "Europe/London",
    "Europe/Dublin",
    "Europe/Lisbon",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Brussels",
    "Europe/Amsterdam",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Vienna",
    "Europe/Athens",
    "Europe/Istanbul",
    "Europe/Kyiv",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Toronto",
    "Australia/Sydney",
    "UTC",
)
# The database's names of places: Region/City.  Its other names ("W-SU", "US/Eastern",
# "Factory", "localtime") are old links or not zones at all, and only clutter the list.
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)


@cache
def offered_zones() -> tuple[str, ...]:
    """The zones the profile suggests: the common ones first, then every place's zone."""
    every = zone_names()
    common = tuple(zone for zone in COMMON_ZONES if zone in every)
    places = tuple(zone for zone in every if zone.split("/")[0] in REGIONS and zone not in common)
    return common + places


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
