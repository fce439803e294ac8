"""Pocket Rummy's page script lives in the plug-in's own ``static/`` folder, and the real site
serves it: from the finders in development (WhiteNoise reads them at each request), and
from ``collectstatic``'s output under a hashed name in production, as any game's script."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse

from .presentation import PRESENTATION
from .test_site import play_out, started

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "static" / PRESENTATION.script
# The script tags a page ends with (game-shell.js first, then the game's own).
SCRIPT_SRC = re.compile(r'<script src="([^"]+)" defer></script>')


def served(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return b"".join(response.streaming_content)


@pytest.mark.django_db
def test_its_game_page_and_replay_load_its_own_script_served_from_its_folder(alice, bob):
    assert SCRIPT.is_file()
    game = started(alice, bob)
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    sources = SCRIPT_SRC.findall(page)
    assert sources[-2:] == ["/static/js/game-shell.js", f"/static/{PRESENTATION.script}"]
    assert served(client, sources[-1]) == SCRIPT.read_bytes()

    game = play_out(game, "static")
    replay = client.get(reverse("games:game_replay", args=[game.pk])).content.decode()
    assert f'src="/static/{PRESENTATION.script}"' in replay


def test_a_path_climbing_out_of_its_static_folder_is_not_found(client):
    assert client.get("/static/../conftest.py").status_code == 404
    assert client.get("/static/js/../../conftest.py").status_code == 404


@pytest.mark.django_db
def test_collectstatic_gathers_it_and_the_production_storage_serves_it_hashed(alice, bob, tmp_path):
    root = tmp_path / "static"
    manifest = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
    production = override_settings(
        STATIC_ROOT=root,
        STORAGES={"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
        | {"staticfiles": manifest},
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
    )
    with production:
        # The admin's files are most of the work and no game page uses them.
        call_command("collectstatic", "--noinput", "--ignore", "admin", verbosity=0)
        assert (root / PRESENTATION.script).read_bytes() == SCRIPT.read_bytes()
        game = started(alice, bob)
        client = Client()  # a new client: its WhiteNoise reads the collected files
        client.force_login(alice)
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        own = SCRIPT_SRC.findall(page)[-1]
        stem = re.escape(PRESENTATION.script.removesuffix(".js"))
        assert re.fullmatch(rf"/static/{stem}\.[0-9a-f]{{12}}\.js", own), own
        assert served(client, own) == SCRIPT.read_bytes()
