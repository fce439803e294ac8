"""The rules pages: one per game of the registry and an index, in English, Romanian and
Hungarian, with example melds a screen reader can read, linked from the lobby and every
game page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import GAMES
from games.engine.remi.rules import REMI
from games.game_names import game_label
from games.tables import lifecycle

pytestmark = pytest.mark.django_db

# Each page's first heading after "How to play", and a section heading, in each language.
HEADINGS = {
    "en": ("How to play Remi Etalat", "Runs and sets", "Scoring"),
    "ro": ("Cum se joacă Remi Etalat", "Suite și terțe", "Punctajul"),
    "hu": ("Remi Etalat: játékszabályok", "Sorok és csoportok", "Pontozás"),
}


TITLES = {"en": "How to play {}", "ro": "Cum se joacă {}", "hu": "{}: játékszabályok"}


def h1(page: str) -> str:
    match = re.search(r"<h1>(.*?)</h1>", page, flags=re.S)
    assert match, page[:500]
    return " ".join(match[1].split())


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_every_game_has_a_rules_page_in_each_language(client, key, language):
    response = client.get(f"/rules/{key}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<html lang="{language}">' in page
    # Every page has sections: a heading per part, and lists a screen reader announces.
    assert page.count("<h2>") >= 5
    assert "<ul>" in page
    with translation.override(language):
        name = game_label(key)
    assert h1(page) == TITLES[language].format(name)
    assert f"<h2>{HEADINGS[language][1]}</h2>" in page


@pytest.mark.parametrize("language", ["en", "ro", "hu"])
def test_the_remi_page_speaks_the_readers_language(client, language):
    page = client.get("/rules/remi/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    title, runs, scoring = HEADINGS[language]
    assert h1(page) == title
    assert f"<h2>{runs}</h2>" in page
    assert f"<h2>{scoring}</h2>" in page


def test_the_language_cookie_chooses_the_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "hu"
    page = client.get("/rules/thai-rummy/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="hu">' in page
    assert "<h2>A lapok értéke</h2>" in page


def test_romanian_pages_use_the_romanian_game_words(client):
    page = client.get("/rules/remi/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    for word in ("etalare", "suită", "terță", "Joly", "dublă", "atu", "tabl"):
        assert word in page, word


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/rules/REMI/").status_code == 404


def test_the_index_links_every_game(client):
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ro")
    assert response.status_code == 200
    page = response.content.decode()
    assert h1(page) == "Cum se joacă"
    for key in GAMES:
        assert f'href="/rules/{key}/"' in page


def test_example_melds_are_pictures_with_spoken_labels(client):
    page = client.get("/rules/remi/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'role="img" aria-label="red 5, red 6, red 7"' in page
    assert 'aria-label="blue 10, Joly as blue 11, blue 12, blue 13"' in page
    # The faces are the game pages' own tiles, hidden from screen readers (the label says it).
    assert (
        '<span class="tile small tile-red" aria-hidden="true"><span class="tile-num">5</span>'
        in page
    )
    ro = client.get("/rules/remi/", HTTP_ACCEPT_LANGUAGE="ro").content.decode()
    assert 'aria-label="roșu 5, roșu 6, roșu 7"' in ro
    cards = client.get("/rules/thai-rummy/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'aria-label="queen of spades, king of spades, ace of spades"' in cards
    assert 'class="card small card-S" aria-hidden="true"' in cards


def test_the_doubla_split_is_the_engines(client):
    page = client.get("/rules/remi/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    low, high = REMI.low_doubla()[0], REMI.low_doubla()[-1]
    assert (low, high) == (2, 9)  # the printed rules' dublă mică
    assert f"a pair from {low} to {high} is a low doubla" in page
    assert f"from {high + 1} to 13, or of 1s, a high one" in page


def test_the_lobby_links_to_the_rules(client):
    page = client.get("/lobby/").content.decode()
    assert 'href="/rules/"' in page


@pytest.mark.parametrize("key", list(GAMES))
def test_each_game_page_links_to_its_rules(client, alice, bob, key):
    table = lifecycle.create_table(alice, game_type=key, seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'<a href="/rules/{key}/">How to play</a>' in page
