"""``reverse`` remembered: a game page's render names about ten of its addresses, and each
``reverse`` walks the URL resolver again (a thirtieth of a live process's CPU)."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def cached_reverse(name: str, *args: int | str) -> str:
    # An address depends on the name and arguments, and on where the site is mounted and
    # which URLconf is in force (a request's own, else the settings'): all four are the key.
    return _reverse(name, args, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@lru_cache(maxsize=16384)
def _reverse(name: str, args: tuple[int | str, ...], prefix: str, urlconf: str) -> str:
    return reverse(name, args=args, urlconf=urlconf)
