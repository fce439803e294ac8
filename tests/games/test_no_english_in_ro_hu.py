"""Issue 30, fault 3: no English sentence of the catalogue on any page or part of a game in
Romanian or Hungarian.

For every game of the registry one world is scripted through the services: a finished game
(two people and a bot, played out by the easy bot, its review computed), a game being played
by correspondence (a person against bots, so hints are given), a table waiting for a player
and a tournament whose first round is being played.  Each page and part a player or a
spectator is shown of them is rendered in Romanian and in Hungarian, with the language chosen
as the site chooses it: the signed-in player's profile (their browser asks for English), the
visitor's language cookie.  The scan fails on any English sentence the catalogue translates
otherwise: a string never marked, marked but not translated, or made outside the viewer's
language (a sentence stored or cached in the language of whoever made it).
"""

from __future__ import annotations

import functools
import html
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import polib
import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import presenters
from games.engine import GAMES, IllegalAction, InvalidAction
from games.models import Game, Table
from games.play import live_views, services
from games.play.page_parts import render_parts
from games.tables import lifecycle
from remi_site.catalogues import LOCALE_DIR
from reviews import services as review_services
from tests.conftest import make_user
from tests.games.playing import play_out
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

LANGUAGES = ("ro", "hu")
HTMX = {"HTTP_HX_REQUEST": "true"}

# --- The English to look for ----------------------------------------------------------------

# What a catalogue string leaves to be filled in: Python's placeholders, and markup (the page's
# text is read without its tags, so a sentence with a link in it is looked for piece by piece).
FILLED_IN = re.compile(r"%\(\w+\)[sdif]|%[sdif]|<[^>]*>")
WORD = re.compile(r"[^\W\d_]{2,}")


def literal_pieces(msgid: str) -> list[str]:
    """The pieces of ``msgid`` between its placeholders and tags that read as English on
    their own: two words or more, or a word of eight letters or more.  A shorter piece
    ("of", "Draw", "tiles") proves nothing: it is a word of another sentence, a name or
    notation as often as a string left untranslated."""
    pieces = []
    for chunk in FILLED_IN.split(msgid):
        text = " ".join(html.unescape(chunk).split())
        words = WORD.findall(text)
        if len(words) >= 2 or any(len(word) >= 8 for word in words):
            pieces.append(text)
    return pieces


def _normal(text: str) -> str:
    return " ".join(text.split())


@functools.cache
def english_pieces(language: str) -> tuple[str, ...]:
    """The English pieces the catalogue of ``language`` says otherwise.

    Only entries with a translation that differs count (a word spelt alike in both languages
    is no finding).  Fuzzy entries count: msgfmt leaves them out, so the page shows their
    English.  A piece that the language's own translations use (a product name such as
    "Remi Etalat", a borrowed word) is not a finding either: the page may say it in that
    language."""
    entries = []
    for name in ("django.po", "djangojs.po"):
        path = LOCALE_DIR / language / "LC_MESSAGES" / name
        if path.exists():
            entries.extend(e for e in polib.pofile(str(path)) if not e.obsolete)
    translations = []
    pieces: set[str] = set()
    for entry in entries:
        if entry.msgid_plural:
            sources = [entry.msgid, entry.msgid_plural]
            said = list(entry.msgstr_plural.values())
        else:
            sources = [entry.msgid]
            said = [entry.msgstr]
        translations.extend(said)
        if not all(s.strip() for s in said):
            continue  # untranslated: tests/site/test_catalogues.py fails on it
        if {_normal(s) for s in sources} & {_normal(s) for s in said}:
            continue
        for source in sources:
            pieces.update(literal_pieces(source))
    own_words = " ".join(_normal(html.unescape(FILLED_IN.sub(" ", t))) for t in translations)
    return tuple(sorted(p for p in pieces if not _said_in(p, own_words)))


def _said_in(piece: str, text: str) -> bool:
    """``piece`` in ``text`` as whole words (so "Remi" is not found in "Remiză")."""
    return piece in text and _as_words(piece).search(text) is not None


@functools.cache
def _as_words(piece: str) -> re.Pattern[str]:
    start = r"\b" if piece[0].isalnum() else ""
    end = r"\b" if piece[-1].isalnum() else ""
    return re.compile(start + re.escape(piece) + end)


@functools.cache
def _words_of(piece: str) -> frozenset[str]:
    return frozenset(WORD.findall(piece))


# Attributes people hear or read without the text of the page: names and descriptions for
# screen readers, tooltips, hints in empty fields, pictures' words, htmx's confirmations,
# and the page script's sentences (game-shell.js and the others read theirs from data-*).
HEARD = {
    "aria-label",
    "aria-description",
    "aria-roledescription",
    "aria-valuetext",
    "title",
    "placeholder",
    "alt",
    "hx-confirm",
}


def _heard(tag: str, name: str, attributes: dict[str, str | None]) -> bool:
    if name in HEARD or name.startswith("data-"):
        return True
    if name == "value":  # a button's words
        return attributes.get("type") in ("submit", "button")
    return name == "content" and tag == "meta" and bool(attributes.get("name"))


class _Reader(HTMLParser):
    """The text of a page and of its heard attributes, without scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skipping += 1
        named = dict(attrs)
        self.parts.extend(value for name, value in attrs if value and _heard(tag, name, named))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def readable(page: str) -> str:
    reader = _Reader()
    reader.feed(page)
    reader.close()
    # One space between text nodes: the pieces looked for never span a tag.
    return _normal(" ".join(reader.parts))


def english_in(page: str, language: str) -> list[str]:
    text = readable(page)
    words = set(WORD.findall(text))
    found = []
    for piece in english_pieces(language):
        # A cheap first look (every word of the piece is on the page) before the search.
        if _words_of(piece) <= words and _said_in(piece, text):
            found.append(piece)
    return found


def test_the_scan_finds_english_pieces_and_leaves_the_language_s_own_words():
    page = (
        '<html lang="ro"><p>Bine ai venit</p><button title="Skip to content">x</button>'
        '<div data-say-lost="Connection lost: reconnecting… Moves still work; the page catches'
        ' up."></div><script>var s = "Open tables";</script>'
    )
    found = english_in(page, "ro")
    assert "Skip to content" in found
    assert "Connection lost: reconnecting… Moves still work; the page catches up." in found
    assert "Open tables" not in found  # a script's text is not read
    assert literal_pieces("It is %(name)s's turn") == ["It is"]
    assert literal_pieces("%(count)s tiles") == []
    assert literal_pieces('Read <a href="%(url)s">the rules</a> first') == ["the rules"]


# --- The world of one game ------------------------------------------------------------------


@dataclass
class World:
    key: str
    player: Any  # seated at every game below
    finished: Game  # the player, another person and a bot, played to the end
    running: Game  # the player against bots, by correspondence, the player to move
    waiting: Table  # the player's table with a seat still free
    tournament: Tournament  # its first round being played, the player at one of its tables
    match_game: Game


def playing_until(game: Game, seat: int, *, moves: int, seed: int) -> Game:
    """The easy bot's moves for every seat until ``moves`` were made and ``seat`` is to act
    (a position with something on the table, the player deciding)."""
    engine = services.game_of(game.table)
    rng = random.Random(seed)
    for _ in range(10 * moves):
        game = Game.objects.select_related("table").get(pk=game.pk)
        assert game.status == Game.Status.PLAYING, "the scripted game ended early"
        if game.version >= moves and seat in game.to_act:
            return game
        state = engine.load(game.state)
        mover = min(game.to_act)
        action = engine.choose(engine.player_view(state, mover), "easy", rng)
        services.play(game.pk, mover, action, game.version)
    raise AssertionError("the seat was never to act")


def scripted_world(key: str) -> World:
    player = make_user("ana", display_name="Ana")
    bela = make_user("bela", display_name="Béla")
    table = lifecycle.create_table(player, game_type=key, seat_count=3, bots=["easy"])
    lifecycle.join_table(table, bela)
    finished = play_out(lifecycle.start_table(table, player))
    review_services.review_for(finished)
    review_services.compute(finished.pk)

    slow = lifecycle.create_table(
        player,
        game_type=key,
        seat_count=3,
        bots=["easy", "easy"],
        pace=Table.Pace.SLOW,
        move_seconds=24 * 3600,
    )
    running = playing_until(lifecycle.start_table(slow, player), 0, moves=12, seed=5)

    waiting = lifecycle.create_table(player, game_type=key, seat_count=3, bots=["easy"])

    organiser = make_user("org", display_name="Organiser")
    tournament = Tournament.objects.create(
        organiser=organiser,
        name="Cupa",
        game_type=key,
        seat_count=2,
        format=Tournament.Format.SWISS,
        rounds=3,
    )
    tournament_services.open_registration(tournament, organiser)
    for person in (player, bela, make_user("cici"), make_user("dani")):
        tournament_services.register(tournament, person)
    tournament_services.close_registration(tournament, organiser)
    round_ = tournament_services.propose_round(tournament, organiser)
    tournament_services.confirm_round(round_, organiser)
    match_game = Game.objects.get(table__tournament_match__round=round_, table__seats__user=player)
    return World(key, player, finished, running, waiting, tournament, match_game)


# --- Rendering everything -------------------------------------------------------------------


@dataclass
class Findings:
    language: str
    found: list[tuple[str, str, str]] = field(default_factory=list)

    def check(self, page: str, html_text: str) -> None:
        for english in english_in(html_text, self.language):
            self.found.append((self.language, page, english))


def fetched(client: Client, url: str, language: str, **extra: Any) -> str:
    response = client.get(url, **extra)
    assert response.status_code == 200, (url, response.status_code)
    text = response.content.decode()
    if "HTTP_HX_REQUEST" not in extra and text.lstrip().startswith("<!DOCTYPE"):
        assert f'<html lang="{language}"' in text, (url, "not in the chosen language")
    return text


def posted(client: Client, url: str, data: dict[str, Any]) -> str:
    response = client.post(url, data, **HTMX)
    assert response.status_code in (200, 400, 403), (url, response.status_code)
    return response.content.decode()


def viewers(world: World, language: str) -> Iterator[tuple[str, Client]]:
    """The seated player, signed in, whose profile names the language while the browser asks
    for English; and a visitor who chose the language (the switcher's cookie)."""
    world.player.preferred_language = language
    world.player.save(update_fields=["preferred_language"])
    player = Client(HTTP_ACCEPT_LANGUAGE="en")
    player.force_login(world.player)
    yield "player", player
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    yield "spectator", visitor


def game_pages(world: World, who: str, client: Client, language: str, out: Findings) -> None:
    running, finished = world.running, world.finished
    get = functools.partial(fetched, client, language=language)
    for name, url in (
        ("running game", running.get_absolute_url()),
        ("running game's table", reverse("games:table", args=[running.table_id])),
        ("result", finished.get_absolute_url()),
        ("finished game's table", reverse("games:table", args=[finished.table_id])),
        ("deal check", reverse("games:game_deal", args=[finished.pk])),
        ("review", reverse("reviews:review", args=[finished.pk])),
        ("hint counts", reverse("reviews:hint_counts", args=[finished.pk])),
        ("rules", reverse("games:rules_game", args=[world.key])),
        ("lobby", reverse("games:lobby")),
        ("tournaments", reverse("tournaments:list")),
        ("tournament", reverse("tournaments:detail", args=[world.tournament.pk])),
        ("tournament game", world.match_game.get_absolute_url()),
    ):
        out.check(f"{who}: {name}", get(url))
    out.check(f"{who}: running game's update", get(running.get_absolute_url(), **HTMX))
    out.check(f"{who}: result's update", get(finished.get_absolute_url(), **HTMX))
    steps = finished.version
    replay = reverse("games:game_replay", args=[finished.pk])
    for step in sorted({0, steps // 2, steps}):
        out.check(f"{who}: replay at step {step}", get(f"{replay}?step={step}"))
        out.check(f"{who}: replay's step {step}", get(f"{replay}?step={step}", **HTMX))
        review_step = reverse("reviews:review_step", args=[finished.pk])
        out.check(f"{who}: review of step {step}", get(f"{review_step}?step={step}"))
    out.check(f"{who}: review's body", get(reverse("reviews:review", args=[finished.pk]), **HTMX))


def live_parts(world: World, language: str, out: Findings) -> None:
    """What a socket sends: each part of the page's ``updates``, for the seat and a
    spectator, rendered as the consumer renders them (in the viewer's language)."""
    for game, what in ((world.running, "running game"), (world.finished, "result")):
        snapshot = live_views.read_snapshot(game.pk)
        assert snapshot is not None
        with translation.override(language):
            for seat, who in ((0, "player"), (None, "spectator")):
                context = live_views.viewer_context(snapshot, seat)
                for name, part in render_parts(snapshot.template, context):
                    out.check(f"{who}: {what}'s part {name}", part)


def moves_posted(world: World) -> list[tuple[str, dict[str, Any]]]:
    """Moves the player's page may post that are answered with a sentence beside the
    controls (``#game-error``), and what each is."""
    version = world.running.version
    return [
        # Chosen on an old position: the whole position comes back with a notice.
        (
            "a move on an old position",
            {"version": version - 1, "verb": "notation", "notation": "draw"},
        ),
        # Typed in the notation box, and not a move: the reason, in the player's words.
        ("a refused move", {"version": version, "verb": "notation", "notation": "meld"}),
        # Form data no page sends: 400 with the position and the problem.
        ("a broken form", {"version": "x", "verb": "?"}),
    ]


GAME_ERROR = re.compile(r'<p id="game-error"[^>]*>(.*?)</p>', re.S)


def said_beside_the_controls(answer: str) -> str:
    found = GAME_ERROR.search(answer)
    assert found, "no #game-error in the answer"
    return readable(found.group(1))


def player_only_pages(
    world: World, client: Client, language: str, out: Findings, english: dict[str, str]
) -> None:
    get = functools.partial(fetched, client, language=language)
    for name, url in (
        ("My games", reverse("games:my_games")),
        ("profile", reverse("accounts:profile")),
        ("waiting table", reverse("games:table", args=[world.waiting.pk])),
        ("new table", reverse("games:table_create")),
    ):
        out.check(f"player: {name}", get(url))
    act = reverse("games:game_act", args=[world.running.pk])
    for name, data in moves_posted(world):
        answer = posted(client, act, data)
        out.check(f"player: {name}", answer)
        # Also what is not in the catalogue at all (an engine's code, a sentence never
        # marked): the same words as in English are words nobody translated.
        said = said_beside_the_controls(answer)
        if not said or said == english[name]:
            out.found.append((language, f"player: {name}", said or "(nothing said)"))
    hint = reverse("reviews:hint", args=[world.running.pk])
    out.check("player: the hint button", get(hint, **HTMX))
    out.check("player: a hint", posted(client, hint, {}))
    after_the_end = reverse("reviews:hint", args=[world.finished.pk])
    out.check("player: a hint after the end", posted(client, after_the_end, {}))


def said_in_english(world: World) -> dict[str, str]:
    """The sentences beside the controls in English; and the scan, shown the game page in
    English, finds what it looks for (else a scan that reads nothing would pass)."""
    world.player.preferred_language = "en"
    world.player.save(update_fields=["preferred_language"])
    client = Client()
    client.force_login(world.player)
    page = fetched(client, world.running.get_absolute_url(), "en")
    for language in LANGUAGES:
        assert len(english_in(page, language)) > 10, "the scan missed an English page"
    act = reverse("games:game_act", args=[world.running.pk])
    return {
        name: said_beside_the_controls(posted(client, act, data))
        for name, data in moves_posted(world)
    }


# Every table of the test deals from this series seed: the same games on every run, none
# that ends before the position the test wants (deals vary in length tenfold).
SERIES_SEED = "words-1"


@pytest.mark.parametrize("key", list(GAMES))
def test_no_english_on_a_game_s_pages_in_romanian_or_hungarian(key, monkeypatch):
    monkeypatch.setattr(lifecycle, "new_series_seed", lambda: SERIES_SEED)
    world = scripted_world(key)
    english = said_in_english(world)
    found = []
    for language in LANGUAGES:
        out = Findings(language)
        for who, client in viewers(world, language):
            game_pages(world, who, client, language, out)
            if who == "player":
                player_only_pages(world, client, language, out, english)
        live_parts(world, language, out)
        found.extend(out.found)
    assert not found, "English on the pages:\n" + "\n".join(
        f"{language} | {page} | {english}" for language, page, english in found
    )


# Moves a player may type in any game's notation box that no game reads: every verb of the
# four notations, bare, with too much, or with words that are not tiles or cards.
TYPED_SLIPS = (
    "",
    "fly",
    "draw now",
    "take",
    "take 7C",
    "take 7C on",
    "pass 2",
    "meld",
    "meld X9",
    "meld J= R1 R2",
    "meld JK= 5H 6H",
    "meld J=J R1 R2",
    "meld JK=JK 5H 6H",
    "meld R5=R4 R6 R7",
    "meld 5H=4H 6H 7H",
    "layoff",
    "layoff x 8H",
    "discard",
    "discard QS KS",
    "play",
    "play R1 R2 R3 | | K7 Y7 B7",
    "play X9",
    "play J= R1 R2",
    "play J=J R1 R2",
    "play R5=R4 R6 R7",
    "add",
    "pick",
    "swap",
    "exchange",
    "doubla",
    "doubla R5 sideways",
)


@pytest.mark.parametrize("key", list(GAMES))
def test_a_typed_move_no_game_reads_is_answered_in_the_player_s_language(key, alice):
    """The notation box's refusals (checked without pages: the page shows this sentence,
    as the game test above sees for one slip): never the engine's code, never English."""
    table = lifecycle.create_table(alice, game_type=key, seat_count=2, bots=["easy"])
    game = lifecycle.start_table(table, alice)
    engine = services.game_of(game.table)
    presentation = presenters.presenter_for(key)
    state = engine.load(game.state)
    seat = min(game.to_act)
    found = []
    for text in TYPED_SLIPS:
        try:
            engine.apply(state, seat, text)
        except (IllegalAction, InvalidAction) as refusal:
            with translation.override("en"):
                english = presentation.refusal_text(refusal, game)
            for language in LANGUAGES:
                with translation.override(language):
                    said = presentation.refusal_text(refusal, game)
                if said == english or refusal.code in said:
                    found.append(f"{language} | {text!r} | {said}")
    assert not found, "Refusals not in the player's language:\n" + "\n".join(found)
