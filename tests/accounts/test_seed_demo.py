"""``manage.py seed_demo``: the demo logins ./bin/run prints."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.management.commands.seed_demo import DEMO_ACCOUNTS
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_an_admin_and_two_players_and_prints_working_logins(settings):
    settings.DEBUG = True
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert len(DEMO_ACCOUNTS) == 3
    for account in DEMO_ACCOUNTS:
        user = User.objects.get(username=account.username)
        assert user.check_password(account.password)
        assert user.is_superuser is account.is_admin
        assert f"{account.username:<6} / {account.password}" in out.getvalue()
    assert sum(a.is_admin for a in DEMO_ACCOUNTS) == 1


def test_seed_demo_is_idempotent_and_restores_the_printed_password(settings):
    settings.DEBUG = True
    call_command("seed_demo", stdout=StringIO())
    ana = User.objects.get(username="ana")
    ana.set_password("changed-by-someone")
    ana.save()
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert User.objects.count() == 3
    ana.refresh_from_db()
    assert ana.check_password("remi-ana-demo")
    assert "reset" in out.getvalue()


def test_seed_demo_refuses_to_run_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("seed_demo", stdout=StringIO())
    assert not User.objects.exists()
