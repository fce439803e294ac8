"""Issue 30, fault 3: a bot's name is said in the viewer's language on every page that shows
it (the game page, its log, the deal check, the replay), whatever language the game began in:
the lobby said "Bot (ușor) 2" while the game page said "Bot (easy) 2"."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import GAMES
from games.presenters.seat_names import shown_name
from games.tables import lifecycle
from tests.games.test_deal_verification import play_out

pytestmark = pytest.mark.django_db

LABELS = {"en": "Bot (easy) 2", "ro": "Bot (ușor) 2", "hu": "Bot (könnyű) 2"}


def started_in_romanian(owner, key):
    with translation.override("ro"):  # the owner's language when the game was dealt
        table = lifecycle.create_table(owner, game_type=key, seat_count=2, bots=["easy"])
        return lifecycle.start_table(table, owner)


def assert_named_in(html: str, language: str, where: str) -> None:
    assert LABELS[language] in html, f"{where} in {language}"
    others = [label for lang, label in LABELS.items() if lang != language]
    assert not any(label in html for label in others), f"{where} in {language}"


@pytest.mark.parametrize("key", list(GAMES))
def test_every_page_names_the_bot_in_the_viewer_s_language(client, alice, key):
    game = started_in_romanian(alice, key)
    client.force_login(alice)
    for language in LABELS:
        client.cookies["django_language"] = language
        assert_named_in(client.get(f"/games/{game.pk}/").content.decode(), language, "game")
    # Bots do not wait for a worker here: random legal moves play the game out.
    finished = play_out(game)
    for language in LABELS:
        client.cookies["django_language"] = language
        for path in ("", "deal/", "replay/"):
            html = client.get(f"/games/{finished.pk}/{path}").content.decode()
            assert_named_in(html, language, path or "the result")


def test_a_person_s_name_is_never_changed():
    with translation.override("en"):
        assert shown_name("Bot (ușor) 2") == "Bot (easy) 2"
        assert shown_name("ana.popescu") == "ana.popescu"
        assert shown_name("Bot (easy)") == "Bot (easy)"  # no seat: not a bot's name
        assert shown_name("Robo 7") == "Robo 7"
