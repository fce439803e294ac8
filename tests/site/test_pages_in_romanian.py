"""The site's pages in Romanian and Hungarian: chosen from the browser, the switcher or the
profile, with no English sentence of the catalogue left on them.

The scan takes every sentence of the Romanian catalogue whose translation differs from the
English, and fails if the English stands in a page rendered in Romanian: a string that was
never marked, marked but never translated, or rendered outside the viewer's language.
"""

from __future__ import annotations

import html as html_lib
import re
from datetime import UTC, datetime
from functools import cache

import polib
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.tables import lifecycle
from notifications.kinds import Kind
from notifications.unsubscribe_tokens import make_token
from remi_site.catalogues import LOCALE_DIR
from tests.conftest import make_user
from tests.games.test_lobby_views import form_data
from tests.tournaments.helpers import players as tournament_players
from tests.tournaments.helpers import tournament as tournament_of
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PLACEHOLDER = re.compile(r"%\(\w+\)[sdg]|%[sd]")


@cache
def english_sentences(language: str) -> tuple[str, ...]:
    """English sentences of the catalogue that the translation changes (no placeholders)."""
    po = polib.pofile(str(LOCALE_DIR / language / "LC_MESSAGES" / "django.po"))
    return tuple(
        e.msgid
        for e in po
        if not e.obsolete
        and not e.msgid_plural
        and not PLACEHOLDER.search(e.msgid)
        and " " in e.msgid.strip()
        and len(e.msgid) >= 10
        and e.msgstr.strip() != e.msgid.strip()
    )


def visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    # What people read in attributes too: labels for screen readers, hints, button values.
    attributes = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html_lib.unescape(" ".join([text, *attributes])).split())


def english_left(page: str, language: str = "ro") -> list[str]:
    text = visible_text(page)
    return [sentence for sentence in english_sentences(language) if sentence in text]


def check_translated(client: Client, url: str, language: str = "ro", **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code in (200, 404), (url, response.status_code)
    page = response.content.decode()
    assert f'<html lang="{language}">' in page, url
    assert not english_left(page, language), (url, english_left(page, language))
    return page


@pytest.fixture
def romanian_player(db):
    return make_user("ana", display_name="Ana", preferred_language="ro")


@pytest.fixture
def busy_site(romanian_player, bob, carol):
    """A table waiting for a player, a game being played, a tournament taking players."""
    waiting = lifecycle.create_table(romanian_player, seat_count=4, bots=["easy"])
    lifecycle.join_table(waiting, bob)
    playing = lifecycle.create_table(bob, seat_count=2)
    lifecycle.join_table(playing, carol)
    game = lifecycle.start_table(playing, bob)
    tournament = Tournament.objects.create(
        organiser=bob,
        name="Cupa de toamnă",
        game_type="remi",
        seat_count=2,
        format=Tournament.Format.SWISS,
        rounds=3,
        status=Tournament.Status.REGISTRATION,
        registration_closes_at=datetime(2030, 3, 5, 18, 30, tzinfo=UTC),
    )
    return {"waiting": waiting, "game": game, "tournament": tournament}


VISITOR_PAGES = [
    "/",
    "/lobby/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/tournaments/",
    "/ratings/remi/",
    "/fair-deals/",
    "/rules/",
    "/rules/remi/",
    "/rules/rummikub/",
    "/rules/basic-rummy/",
    "/rules/thai-rummy/",
    "/no-such-page/",
]


@pytest.mark.parametrize("url", VISITOR_PAGES)
def test_a_romanian_browser_gets_every_public_page_in_romanian(client, busy_site, url):
    page = check_translated(client, url, HTTP_ACCEPT_LANGUAGE="ro-RO,ro;q=0.9,en;q=0.5")
    english = Client().get(url).content.decode()
    assert '<html lang="en">' in english
    assert visible_text(page) != visible_text(english)


def test_the_same_pages_in_hungarian(client, busy_site):
    for url in VISITOR_PAGES:
        check_translated(client, url, "hu", HTTP_ACCEPT_LANGUAGE="hu-HU,hu;q=0.9")
    page = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    assert "Nyitott asztalok" in page and "Most élőben" in page


def test_a_browser_without_a_language_gets_english(client, busy_site):
    page = client.get("/lobby/").content.decode()
    assert '<html lang="en">' in page
    assert "Open tables" in page and "Live now" in page


@pytest.mark.parametrize(
    ("language", "headings"),
    [("ro", ("Mesele la care stai", "Live acum")), ("hu", ("Asztalok, ahol ülsz", "Most élőben"))],
)
def test_a_players_pages_are_in_the_language_of_the_profile(
    client, romanian_player, busy_site, language, headings
):
    romanian_player.preferred_language = language
    romanian_player.save()
    client.force_login(romanian_player)
    tournament = busy_site["tournament"]
    waiting = busy_site["waiting"]
    urls = [
        "/",
        reverse("accounts:profile"),
        reverse("account_change_password"),
        reverse("account_email"),
        reverse("games:lobby"),
        reverse("games:table_create"),
        reverse("games:table", args=[waiting.pk]),
        reverse("games:my_games"),
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[tournament.pk]),
    ]
    # The browser asks for English: the profile's choice wins once logged in.
    for url in urls:
        check_translated(client, url, language, HTTP_ACCEPT_LANGUAGE="en")
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert all(heading in lobby for heading in headings)
    table = client.get(reverse("games:table", args=[waiting.pk])).content.decode()
    assert {"ro": "Bot (ușor) 2", "hu": "Bot (könnyű) 2"}[language] in table


def test_table_form_errors_are_in_romanian(client, romanian_player):
    client.force_login(romanian_player)
    response = client.post(reverse("games:table_create"), form_data(seat_count="2", bots="2"))
    page = response.content.decode()
    assert response.status_code == 400
    assert "Te rog corectează câmpurile marcate mai jos." in page
    assert "Lasă cel puțin un loc pentru un om" in page
    assert not english_left(page)


def test_table_refusals_in_messages_are_in_romanian(client, romanian_player, bob, carol):
    full = lifecycle.create_table(bob, seat_count=2)
    lifecycle.join_table(full, carol)
    client.force_login(romanian_player)
    response = client.post(reverse("games:table_join", args=[full.pk]), follow=True)
    assert "Această masă e plină." in response.content.decode()


def test_the_unsubscribe_pages_and_the_admin_tournament_screen_are_in_romanian(
    client, bob, busy_site
):
    url = reverse("notifications:unsubscribe", args=[make_token(bob.pk, Kind.TURN)])
    check_translated(client, url, HTTP_ACCEPT_LANGUAGE="ro")
    check_translated(client, "/unsubscribe/garbled/", HTTP_ACCEPT_LANGUAGE="ro")

    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-long-1")
    admin.preferred_language = "ro"
    admin.save()
    client.force_login(admin)
    tournament = busy_site["tournament"]
    page = client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert '<html lang="ro"' in page
    assert tournament.name in page
    for action in ("Deschide înscrierile", "Închide înscrierile", "Recalculează clasamentul"):
        assert action in page


def test_dates_follow_the_language_and_the_viewers_time_zone(client, romanian_player, busy_site):
    # 18:30 UTC on 5 March 2030: 20:30 in Bucharest, 13:30 in New York.
    romanian_player.time_zone = "America/New_York"
    romanian_player.save()
    client.force_login(romanian_player)
    page = client.get(reverse("tournaments:list")).content.decode()
    # Django's Romanian date format (its month names are capitalised).
    assert '<time datetime="2030-03-05T13:30:00-05:00">5 Martie 2030, 13:30</time>' in page

    anonymous = Client().get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="hu")
    hungarian = anonymous.content.decode()
    assert '<time datetime="2030-03-05T20:30:00+02:00">2030. március 5. 20:30</time>' in hungarian


def test_the_scan_sees_english_that_was_left_in(client):
    page = '<html lang="ro"><p>Bine ai venit</p><button title="Skip to content">x</button>'
    assert english_left(page) == ["Skip to content"]
    assert english_left("<p>Open tables</p><p>Sari la conținut</p>") == ["Open tables"]


@pytest.mark.parametrize(
    ("template", "heading"),
    [
        ("400.html", "Cerere greșită"),
        ("403.html", "Nu este permis"),
        ("404.html", "Pagina nu a fost găsită"),
        ("429.html", "Prea multe cereri"),
        ("500.html", "Ceva nu a mers bine"),
    ],
)
def test_error_pages_speak_romanian(rf, template, heading):
    request = rf.get("/", HTTP_ACCEPT_LANGUAGE="ro")
    request.user = AnonymousUser()
    with translation.override("ro"):
        # Django renders 500.html with no request at all: it must stand alone.
        page = render_to_string(template, request=None if template == "500.html" else request)
    assert '<html lang="ro">' in page
    assert f"<h1>{heading}</h1>" in page
    assert not english_left(page)


def test_a_running_tournament_page_in_romanian_and_hungarian(client, alice):
    event = tournament_of(alice, seat_count=2)
    tournament_services.open_registration(event, alice)
    for user in tournament_players(3):
        tournament_services.register(event, user)
    tournament_services.confirm_round(tournament_services.propose_round(event, alice), alice)
    url = reverse("tournaments:detail", args=[event.pk])
    page = check_translated(client, url, HTTP_ACCEPT_LANGUAGE="ro")
    for words in ("Puncte de meci", "Scorul jocurilor", "Stau pe dinafară:", "Runda 1"):
        assert words in page
    check_translated(client, url, "hu", HTTP_ACCEPT_LANGUAGE="hu")
