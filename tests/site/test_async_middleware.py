"""Under daphne the whole middleware chain runs on the event loop, and only the view hops into
a thread.  A sync-only middleware among async ones made each request hop from a thread back
to the loop and out again; a daphne stopped with a request in that hop never exited (its
thread waited on the stopped loop).  The async versions are driven here through Django's
AsyncClient (the ASGI handler); the sync ones by every other test's Client."""

from __future__ import annotations

import importlib

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import AsyncClient
from django.urls import reverse

from remi_site.json_logs import REQUEST_ID_HEADER


def loaded(path: str):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("path", settings.MIDDLEWARE)
def test_every_middleware_can_run_on_the_event_loop(path):
    assert getattr(loaded(path), "async_capable", False), f"{path} is sync only"


@pytest.mark.django_db(transaction=True)
def test_a_signed_in_players_language_zone_and_cookie_on_the_async_path(alice):
    alice.preferred_language = "ro"
    alice.time_zone = "Europe/Bucharest"
    alice.save()

    async def visit():
        client = AsyncClient(headers={"accept-language": "en"})
        await client.aforce_login(alice)
        return await client.get(reverse("games:lobby"), headers={REQUEST_ID_HEADER: "a" * 32})

    response = async_to_sync(visit)()
    assert response.status_code == 200
    assert '<html lang="ro"' in response.content.decode()
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ro"
    assert response[REQUEST_ID_HEADER] == "a" * 32


@pytest.mark.django_db(transaction=True)
def test_probes_overlong_addresses_and_static_files_on_the_async_path():
    async def visit(path: str, method: str = "get"):
        return await getattr(AsyncClient(), method)(path)

    assert async_to_sync(visit)("/livez").status_code == 200
    assert async_to_sync(visit)("/readyz").status_code == 200
    assert async_to_sync(visit)("/livez", "post").status_code == 405
    assert async_to_sync(visit)("/games/" + "x" * 5000).status_code == 414
    script = async_to_sync(visit)(settings.STATIC_URL + "js/site.js")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("text/javascript")
