"""The warning when nearly every request comes from one client address (issue 27): the sign of
a reverse proxy that does not pass on its clients' addresses. Logged once per ten minutes, and
shown in /healthz to staff only.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

PROXY_IP = "10.0.0.5"
START = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)


@pytest.fixture
def watching(settings):
    settings.SINGLE_ADDRESS_WARNING = True
    settings.SINGLE_ADDRESS_WARNING_PERCENT = 90
    settings.SINGLE_ADDRESS_WARNING_MIN_REQUESTS = 20
    return settings


def visit(ip: str, times: int = 1) -> None:
    for _ in range(times):
        assert Client().get(reverse("account_login"), REMOTE_ADDR=ip).status_code == 200


def warnings_logged(caplog) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "remi_site.address_watch" and record.levelno == logging.WARNING
    ]


def test_nearly_every_request_from_one_address_is_logged_once_per_ten_minutes(watching, caplog):
    with time_machine.travel(START, tick=False) as clock:
        visit("198.51.100.1")
        visit(PROXY_IP, 18)
        assert warnings_logged(caplog) == []  # 18 of 19: too few requests to tell yet
        visit(PROXY_IP)
        (line,) = warnings_logged(caplog)
        assert "95% of the last 20 requests (10 minutes) came from one client address" in line
        assert PROXY_IP in line
        assert "--proxy-headers" in line
        clock.shift(5 * 60)
        visit(PROXY_IP, 30)
        assert len(warnings_logged(caplog)) == 1
        clock.shift(5 * 60)  # the next ten minutes
        visit(PROXY_IP)
        assert len(warnings_logged(caplog)) == 2


def test_requests_from_many_addresses_are_no_warning(watching, caplog):
    for number in range(40):
        visit(f"198.51.100.{number % 4}")
    # Below the share: 85 of 100 from one address.
    visit(PROXY_IP, 85)
    visit("198.51.100.1", 15)
    assert warnings_logged(caplog) == []


def test_health_probes_are_not_counted(watching, caplog):
    # A load balancer probes from an address of its own, and often.
    watching.SINGLE_ADDRESS_WARNING_MIN_REQUESTS = 3
    for _ in range(3):
        Client().get(reverse("healthz"), REMOTE_ADDR=PROXY_IP)
    visit(PROXY_IP)
    assert warnings_logged(caplog) == []
    visit(PROXY_IP, 2)
    assert len(warnings_logged(caplog)) == 1


def test_a_development_site_does_not_watch(settings, caplog):
    settings.SINGLE_ADDRESS_WARNING = False
    settings.SINGLE_ADDRESS_WARNING_MIN_REQUESTS = 1
    visit(PROXY_IP, 5)
    assert warnings_logged(caplog) == []


def test_healthz_shows_the_warning_to_staff_and_nobody_else(watching, alice, celery_worker):
    visit(PROXY_IP, 25)
    staff = Client()
    staff.force_login(make_user("operator", is_staff=True))
    response = staff.get(reverse("healthz"))
    # A warning is advice for people: the load balancer still sees a healthy site.
    assert response.status_code == 200
    (warning,) = response.json()["warnings"]
    assert warning["code"] == "single_client_address"
    assert warning["address"] == PROXY_IP
    assert (warning["requests"], warning["of"], warning["minutes"]) == (25, 25, 10)
    assert "--proxy-headers" in warning["message"]

    player = Client()
    player.force_login(alice)
    for client in (player, Client()):
        response = client.get(reverse("healthz"))
        assert response.status_code == 200
        assert "warnings" not in response.json()
        assert PROXY_IP not in response.content.decode()


def test_healthz_drops_the_warning_once_the_share_falls(watching):
    staff = Client()
    staff.force_login(make_user("operator", is_staff=True))
    with time_machine.travel(START, tick=False) as clock:
        visit(PROXY_IP, 20)
        assert staff.get(reverse("healthz")).json()["warnings"] != []
        clock.shift(10 * 60)
        for number in range(20):
            visit(f"198.51.100.{number}")
        assert staff.get(reverse("healthz")).json()["warnings"] == []
