"""How many tables one player may create a minute, counted in the cache (Redis).

A fixed window per player and clock minute: the count lives under a key naming the minute,
so it needs no clean-up and every web process sees the same count. A player can create at
most twice the limit across a minute boundary, which is still far from flooding the lobby.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class Allowance:
    """A creation counted against the player; given back if the table was not made."""

    key: str

    def give_back(self) -> None:
        # The key may have expired with its minute; then there is nothing to give back.
        with contextlib.suppress(ValueError):
            cache.decr(self.key)


@dataclass(frozen=True)
class TooManyCreations:
    limit: int
    wait_seconds: int

    @property
    def message(self) -> str:
        tables = ngettext("%(n)d table", "%(n)d tables", self.limit) % {"n": self.limit}
        wait = ngettext("%(n)d second", "%(n)d seconds", self.wait_seconds) % {
            "n": self.wait_seconds
        }
        return _(
            "You have just created %(tables)s, the most allowed in a minute. Try again in %(wait)s."
        ) % {"tables": tables, "wait": wait}


def take_creation(user_id: int) -> Allowance | TooManyCreations:
    """Count one table creation for ``user_id``, unless the limit for this minute is used up."""
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    key = f"table-creations:{user_id}:{window}"
    # add() only sets a missing key, so concurrent first creations do not reset each other;
    # incr() is atomic in Redis.
    cache.add(key, 0, timeout=WINDOW_SECONDS * 2)
    count = cache.incr(key)
    limit = settings.TABLE_CREATIONS_PER_MINUTE
    if count > limit:
        cache.decr(key)  # a refusal is not a creation
        wait = math.ceil((window + 1) * WINDOW_SECONDS - now)
        return TooManyCreations(limit=limit, wait_seconds=max(1, wait))
    return Allowance(key)
