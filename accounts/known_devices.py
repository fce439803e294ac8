"""Browsers that have logged in to an account before: a signed cookie set at each login.

The failed-login limits (accounts.login_limits) count a known browser's attempts at its own
accounts apart from its address's, and spare it the account-wide and per-address limits. So a
stranger guessing at a player's password, from anywhere, even from the same network or from
behind the same proxy, cannot lock the player out of the browser they usually play from.

The cookie holds a random id for the browser and the accounts that logged in from it, signed
with the site's key: it cannot be made or altered without the key, and it only ever says
"this browser once knew the password". It holds no session and logs nobody in; a stolen one
is worth what a stranger's own browser is, apart from being spared the per-account and
per-address counts (it still has a count of its own, and the password is still needed).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponseBase

COOKIE_NAME = "remi_device"
SALT = "accounts.known_devices"
# Browsers keep a cookie at most 400 days; renewed at every login, it lasts while it is used.
MAX_AGE_SECONDS = 365 * 24 * 3600
# A family computer may know a few accounts; a cookie is not a place to collect more.
MAX_ACCOUNTS = 8
ID_LENGTH = 22  # secrets.token_urlsafe(16)


@dataclass(frozen=True)
class Device:
    id: str
    accounts: tuple[int, ...]

    def knows(self, account_ids: list[int]) -> bool:
        return any(pk in self.accounts for pk in account_ids)


def _valid(value: Any) -> Device | None:
    # Only our own signed values get here, but an old release's shape must not break a login.
    if not isinstance(value, dict):
        return None
    device_id, accounts = value.get("d"), value.get("a")
    if not isinstance(device_id, str) or len(device_id) != ID_LENGTH:
        return None
    if not isinstance(accounts, list) or not all(
        isinstance(pk, int) and not isinstance(pk, bool) for pk in accounts
    ):
        return None
    return Device(id=device_id, accounts=tuple(accounts[:MAX_ACCOUNTS]))


def read(request: HttpRequest) -> Device | None:
    """The browser's device, or None for a browser unknown to every account (or a forged,
    expired or garbled cookie)."""
    raw = request.COOKIES.get(COOKIE_NAME)
    if not raw or len(raw) > 1000:
        return None
    try:
        value = signing.loads(raw, salt=SALT, max_age=MAX_AGE_SECONDS)
    except (signing.BadSignature, ValueError):
        return None
    return _valid(value)


def remember(request: HttpRequest, response: HttpResponseBase, user_id: int) -> None:
    """Mark the browser behind ``request`` as known to ``user_id`` (it just logged in)."""
    device = read(request)
    device_id = device.id if device else secrets.token_urlsafe(16)
    others = [pk for pk in (device.accounts if device else ()) if pk != user_id]
    accounts = [user_id, *others][:MAX_ACCOUNTS]
    response.set_cookie(
        COOKIE_NAME,
        signing.dumps({"d": device_id, "a": accounts}, salt=SALT),
        max_age=MAX_AGE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
