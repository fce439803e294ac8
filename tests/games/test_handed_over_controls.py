"""A seat the clock handed to a bot says so in its own controls, never in the status line that
every viewer is sent alike (issue 28); its "Take my seat back" works from a part a socket swapped
in, which carries no CSRF token of its own: htmx sends the page's token in a header."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.engine import GAMES
from games.models import Seat
from games.play import live_views
from tests.games.clock_helpers import correspondence_game

pytestmark = pytest.mark.django_db

TAKE_BACK = "Take my seat back"


def handed_over(alice, bob, key: str):
    game = correspondence_game(alice, bob, game_type=key)
    Seat.objects.filter(table=game.table, position=1).update(bot=Seat.Bot.NORMAL)
    return game


@pytest.mark.parametrize("key", list(GAMES))
def test_only_the_handed_over_seat_is_offered_its_seat_back_in_its_controls(alice, bob, key):
    game = handed_over(alice, bob, key)
    snapshot = live_views.read_snapshot(game.pk)
    assert snapshot is not None
    views = live_views.SharedViews()
    url = f"/tables/{game.table_id}/take-back/"
    with translation.override("en"):
        for viewer in (None, 0, 1):
            parts = dict(views.rendered(snapshot, viewer, live_views.ENGLISH).parts)
            assert TAKE_BACK not in parts["status"]
            if viewer == 1:
                assert TAKE_BACK in parts["controls"] and f'hx-post="{url}"' in parts["controls"]
            else:
                assert all(TAKE_BACK not in html for html in parts.values()), viewer


@pytest.mark.parametrize("token", ["header", "none"])
def test_taking_the_seat_back_from_a_swapped_in_form_needs_the_pages_token(alice, bob, token):
    game = handed_over(alice, bob, "remi")
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    headers = {"HTTP_HX_REQUEST": "true"}
    if token == "header":
        headers["HTTP_X_CSRFTOKEN"] = client.cookies["csrftoken"].value
    # The swapped-in form's own field is empty: a socket's render has no request to make one.
    answer = client.post(
        f"/tables/{game.table_id}/take-back/", {"csrfmiddlewaretoken": ""}, **headers
    )
    seat = Seat.objects.get(table=game.table, position=1)
    if token == "header":
        assert answer.status_code == 200 and answer["HX-Redirect"] == f"/games/{game.pk}/"
        assert not seat.handed_over
    else:
        assert answer.status_code == 403 and seat.handed_over
