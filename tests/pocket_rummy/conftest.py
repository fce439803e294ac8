"""Pocket Rummy joins the site for the tests in this folder, by one line."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def pocket_rummy_registered(settings):
    settings.REMI_GAMES = [*settings.REMI_GAMES, "tests.pocket_rummy.plugin"]
