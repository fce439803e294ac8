"""``reverse`` remembered: a game page's render names about ten of its addresses, and each
``reverse`` walks the URL resolver again (a thirtieth of a live process's CPU)."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def mounted() -> tuple[str, str]:
    """Where the site is mounted and which URLconf is in force (a request's own, else the
    settings'): with the name and arguments, what an address depends on."""
    return get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF


def cached_reverse(name: str, *args: int | str) -> str:
    return _reverse(name, args, *mounted())


def cached_reverses(names: tuple[str, ...], *args: int | str) -> tuple[str, ...]:
    """Several addresses with the same arguments: where the site is mounted is read once."""
    prefix, urlconf = mounted()
    return tuple(_reverse(name, args, prefix, urlconf) for name in names)


@lru_cache(maxsize=16384)
def _reverse(name: str, args: tuple[int | str, ...], prefix: str, urlconf: str) -> str:
    return reverse(name, args=args, urlconf=urlconf)
