"""allauth's account adapter, with failed logins limited so strangers cannot lock anyone out.

allauth counts failed logins per IP address and per account name. The per-account count is
the same for everybody, so anyone who types a player's username wrongly enough times locks
that player out, wherever the player is. Here the account count is kept per *address and
account* instead: a guesser is refused at their own address, the owner elsewhere is not. A
second count per address (the ``login_failed_ip`` limit in ``ACCOUNT_RATE_LIMITS``) stops one
address guessing at many accounts; it is taken only while the account count still allows
the attempt, so hammering one account cannot use up the address's count and lock out the
other people behind the same address (a home router, an office).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal import ratelimit
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

ACCOUNT_ACTION = "login_failed"
ADDRESS_ACTION = "login_failed_ip"


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {  # noqa: RUF012 -- extends allauth's class attribute of the same shape
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": _(
            "Too many failed logins for this account from your network. Wait a few minutes "
            "and try again, or reset your password."
        ),
        "too_many_login_attempts_from_address": _(
            "Too many failed logins from your network. Wait a few minutes and try again."
        ),
    }

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's own key is the account alone; adding the client address is what keeps a
        # stranger's failures from counting against the owner. allauth also uses this key to
        # clear the count after a password reset, so both stay consistent.
        login = credentials.get("email", credentials.get("username", "")).lower()
        # get_ip() narrows an IPv6 address to its network (/64) as allauth's per-address
        # limits do, so hopping between the addresses of one network buys no extra tries.
        address = ratelimit.get_ip(request)
        return f"{get_current_site(request).domain}:{address}:{login}"

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        account_usage = ratelimit.consume(
            request,
            app="allauth.account",
            action=ACCOUNT_ACTION,
            key=self._get_login_attempts_cache_key(request, **credentials),
        )
        if not account_usage:
            raise self.validation_error("too_many_login_attempts")
        address_usage = ratelimit.consume(request, app="allauth.account", action=ADDRESS_ACTION)
        if not address_usage:
            # Refused before the password was looked at: not a failure of this account.
            account_usage.rollback()
            raise self.validation_error("too_many_login_attempts_from_address")
        # allauth rolls this back when the password turns out right, so only failures count.
        self._login_failed_rl_usage = ratelimit.RateLimitUsage(
            usage=[*account_usage.usage, *address_usage.usage]
        )
