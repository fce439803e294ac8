"""allauth's account adapter, with failed logins limited so strangers cannot lock anyone out.

allauth counts failed logins per account name, the same for everybody, so anyone who types a
player's username wrongly enough times locks that player out, wherever the player is. Here
accounts.login_limits does all the counting instead (its docstring says how), and allauth's
own count is off (``ACCOUNT_RATE_LIMITS`` in the settings).
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from accounts import login_limits


class AccountAdapter(DefaultAccountAdapter):
    _login_attempt: login_limits.Attempt | None = None

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        # Not allauth's own: its count per name is the lever that locks players out.
        outcome = login_limits.start(request, credentials)
        if isinstance(outcome, login_limits.Refusal):
            raise ValidationError(outcome.message, code="too_many_login_attempts")
        self._login_attempt = outcome

    def authenticate(self, request: HttpRequest, **credentials: Any) -> AbstractBaseUser | None:
        self._login_attempt = None
        user = super().authenticate(request, **credentials)
        # A failure stays counted (it was counted before the password was checked).
        if user is not None and self._login_attempt is not None:
            self._login_attempt.succeeded()
        return user
