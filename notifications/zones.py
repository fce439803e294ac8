"""A player's time zone: their own once the accounts have one, else the site's."""

from __future__ import annotations

import zoneinfo

from django.conf import settings


def zone_of(user) -> zoneinfo.ZoneInfo:
    name = getattr(user, "time_zone", settings.TIME_ZONE) or settings.TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(str(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)
