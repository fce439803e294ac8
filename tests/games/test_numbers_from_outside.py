"""Fault 1 of the hostile probe: digits that are not ASCII (``²``, ``٣``...) crashed four
places with a 500. Every number from outside is read by ``parse_natural``: a clear refusal."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games.engine import GAMES, InvalidAction, remi
from games.models import Action, Game
from games.presenters import PRESENTERS
from games.presenters.basic_rummy import forms as basic_rummy_forms
from games.presenters.remi import forms as remi_forms
from games.presenters.remi.refusals import message_for
from games.presenters.rummikub import forms as rummikub_forms
from games.presenters.thai_rummy import forms as thai_rummy_forms
from games.tables import lifecycle
from remi_site.asgi import application
from tests.fuzz.test_fuzz_http import START_AT_ONCE
from tests.games.test_game_replay import play_to_the_end
from tournaments.forms import OverrideForm

SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.mark.parametrize(
    "notation", ["exchange ²", "add ² R4", "pick ² R1 R2 R3", "swap ² R1 into J R2 R3"]
)
def test_the_notation_refuses_unicode_digits_as_malformed(notation):
    with pytest.raises(InvalidAction) as refusal:
        remi.parse_action(notation)
    assert refusal.value.code == "not-a-number"
    assert refusal.value.params["word"] == "²"
    assert "digits 0-9" in message_for(refusal.value)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "notation", ["exchange ²", "add ² R4", "pick ² R1 R2 R3", "swap ² R1 into J R2 R3"]
)
def test_a_typed_move_with_unicode_digits_is_refused_and_changes_nothing(
    client, alice, bob, started, notation
):
    mover = [alice, bob][started.state["first_player"]]
    client.force_login(mover)
    response = client.post(
        f"/games/{started.pk}/act/",
        {"version": 0, "verb": "notation", "notation": notation},
        **HTMX,
    )
    assert response.status_code == 200
    assert "digits 0-9" in response.content.decode()
    game = Game.objects.get(pk=started.pk)
    assert (game.version, game.state) == (0, started.state)
    assert not Action.objects.filter(game=started).exists()


@pytest.mark.django_db
def test_a_replay_step_in_unicode_digits_is_a_400_naming_the_format(client, carol, started):
    finished = play_to_the_end(started)
    client.force_login(carol)
    response = client.get(f"/games/{finished.pk}/replay/", {"step": "²"})
    assert response.status_code == 400
    assert "digits" in response.content.decode()
    assert client.get(f"/games/{finished.pk}/replay/", {"step": "1"}).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/games/{pk}/replay/", "/games/{pk}/review/step/"])
def test_a_bad_step_is_refused_in_the_viewers_language(client, carol, started, path):
    finished = play_to_the_end(started)
    client.force_login(carol)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ro"
    response = client.get(path.format(pk=finished.pk), {"step": "doi"})
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == (
        "Pasul trebuie să fie numărul unei mutări, scris în cifre, de exemplu ?step=12."
    )


def _cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())


@pytest.mark.django_db(transaction=True)
def test_a_game_socket_with_a_unicode_version_catches_up_from_the_start(alice, bob, started):
    cookie = _cookie(alice)

    async def scenario() -> str:
        ws = WebsocketCommunicator(
            application, f"/ws/games/{started.pk}/?version=%C2%B2", headers=[*SITE, cookie]
        )
        connected, _ = await ws.connect()
        assert connected
        html = await ws.receive_from(timeout=5)  # read as "no version": the whole position
        await ws.disconnect(timeout=10)
        return html

    assert 'id="game-rack"' in async_to_sync(scenario)()


@pytest.mark.django_db(transaction=True)
def test_a_lobby_socket_with_a_unicode_table_number_shows_the_lobby(alice):
    async def scenario() -> str:
        ws = WebsocketCommunicator(application, "/ws/lobby/?table=%C2%B2", headers=SITE)
        connected, _ = await ws.connect()
        assert connected
        html = await ws.receive_from(timeout=5)
        await ws.disconnect(timeout=10)
        return html

    assert 'id="open-tables"' in async_to_sync(scenario)()  # the lobby, not a table page


# --- Fault 4 of the second probe: a form's number in another script's digits --------------

# Zero in Arabic-Indic, Devanagari and fullwidth digits: ``int()`` reads each as 0.
ZEROS = ["\N{ARABIC-INDIC DIGIT ZERO}", "\N{DEVANAGARI DIGIT ZERO}", "\N{FULLWIDTH DIGIT ZERO}"]


def started_with_the_mover_signed_in(client, alice, bob, game_type) -> tuple[Game, dict]:
    """A started two-seat game, ``client`` signed in as the seat to move, and a legal move's
    fields (its timeout move in notation) without the version."""
    table = lifecycle.create_table(
        alice, game_type=game_type, seat_count=2, options=START_AT_ONCE.get(game_type, {})
    )
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    (mover,) = game.to_act
    client.force_login([alice, bob][mover])
    engine = GAMES[game_type]
    action = engine.timeout_action(engine.load(game.state), mover)
    return game, {"verb": "notation", "notation": str(action)}


@pytest.mark.django_db
@pytest.mark.parametrize("zero", ZEROS)
@pytest.mark.parametrize("game_type", sorted(PRESENTERS))
def test_a_move_whose_version_is_in_other_digits_is_refused_and_changes_nothing(
    client, alice, bob, game_type, zero
):
    game, move = started_with_the_mover_signed_in(client, alice, bob, game_type)

    response = client.post(f"/games/{game.pk}/act/", {**move, "version": zero}, **HTMX)
    assert response.status_code == 400
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.version, fresh.state) == (0, game.state)
    assert not Action.objects.filter(game=game).exists()
    # Written as a page writes it, the same move plays.
    assert (
        client.post(f"/games/{game.pk}/act/", {**move, "version": "0"}, **HTMX).status_code == 200
    )
    assert Game.objects.get(pk=game.pk).version == 1


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", sorted(PRESENTERS))
def test_a_move_that_sends_its_version_twice_is_refused_and_changes_nothing(
    client, alice, bob, game_type
):
    """The fuzzer found it: a form's last copy of a field was read, whatever its first said."""
    game, move = started_with_the_mover_signed_in(client, alice, bob, game_type)

    for versions in ([ZEROS[0], "0"], ["0", "0"]):
        response = client.post(f"/games/{game.pk}/act/", {**move, "version": versions}, **HTMX)
        assert response.status_code == 400
        assert "version: It was sent more than once." in response.content.decode()
        fresh = Game.objects.get(pk=game.pk)
        assert (fresh.version, fresh.state) == (0, game.state)
        assert not Action.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("form", "field", "text", "ascii_text"),
    [
        (remi_forms.ActionForm, "meld", "\N{ARABIC-INDIC DIGIT TWO}", "2"),
        (remi_forms.ActionForm, "seat", "\N{FULLWIDTH DIGIT ONE}", "1"),
        (basic_rummy_forms.ActionForm, "onto", "1\N{DEVANAGARI DIGIT TWO}", "12"),
        (thai_rummy_forms.ActionForm, "onto", "\N{MATHEMATICAL BOLD DIGIT THREE}", "3"),
        (rummikub_forms.ActionForm, "version", "\N{BENGALI DIGIT FIVE}", "5"),
    ],
)
def test_every_number_field_of_the_move_forms_refuses_other_digits(form, field, text, ascii_text):
    assert int(text) == int(ascii_text)  # what Django's own field would have taken
    bound = form(data={field: text})
    assert not bound.is_valid() and field in bound.errors
    bound = form(data={field: ascii_text})
    bound.is_valid()
    assert field not in bound.errors and bound.cleaned_data[field] == int(ascii_text)


def test_the_organisers_score_override_refuses_other_digits():
    names = ["Alice", "Bob"]
    data = {"reason": "typo", "place_0": "1", "place_1": "2", "score_0": "3.5"}
    assert OverrideForm(data={**data, "score_1": "-1"}, names=names).is_valid()
    for score in ("\N{ARABIC-INDIC DIGIT TWO}.5", "1e3", "nan", "inf", "\N{FULLWIDTH DIGIT TWO}"):
        form = OverrideForm(data={**data, "score_1": score}, names=names)
        assert not form.is_valid() and "score_1" in form.errors, score
    form = OverrideForm(
        data={**data, "place_1": "\N{ARABIC-INDIC DIGIT TWO}", "score_1": "0"}, names=names
    )
    assert not form.is_valid() and "place_1" in form.errors
