"""Create the demo admin and players, and print their logins (``./bin/run`` calls this).

Idempotent: running it again leaves the same three accounts with the same passwords, so the
printed logins always work. It refuses to run with DEBUG off, because these passwords are
public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User


@dataclass(frozen=True)
class DemoAccount:
    username: str
    password: str
    display_name: str
    is_admin: bool = False

    @property
    def email(self) -> str:
        return f"{self.username}@example.com"


DEMO_ACCOUNTS = (
    DemoAccount("admin", "remi-admin-demo", "Admin", is_admin=True),
    DemoAccount("ana", "remi-ana-demo", "Ana"),
    DemoAccount("mihai", "remi-mihai-demo", "Mihai"),
)


def ensure_account(account: DemoAccount) -> tuple[User, bool]:
    user, created = User.objects.get_or_create(
        username=account.username,
        defaults={"email": account.email, "display_name": account.display_name},
    )
    user.email = account.email
    user.is_staff = user.is_superuser = account.is_admin
    user.set_password(account.password)
    user.save()
    # A verified primary address lets the demo players log in by email without a nag.
    EmailAddress.objects.update_or_create(
        user=user, email=account.email, defaults={"verified": True, "primary": True}
    )
    return user, created


class Command(BaseCommand):
    help = "Create (or reset) the demo admin and two demo players and print their logins."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo only runs with DEBUG on: its passwords are public.")
        with transaction.atomic():
            results = [(account, *ensure_account(account)) for account in DEMO_ACCOUNTS]
        self.stdout.write("Demo logins (username / password):")
        for account, _user, created in results:
            role = "admin, /admin/" if account.is_admin else "player"
            state = "created" if created else "reset"
            self.stdout.write(f"  {account.username:<6} / {account.password:<16} ({role}; {state})")
