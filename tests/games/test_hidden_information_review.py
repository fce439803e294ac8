"""The hidden-information walk of the review and the hint, for every game of the registry:
two players, a logged-in spectator and a visitor, during play and after the end (see
``tests/games/review_walk.py``); and a hint that reads only the asker's own view."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games.engine import GAMES
from games.models import Game
from games.play import services
from reviews.models import Hint
from tests.games.playing import play_out
from tests.games.review_walk import (
    DRAWN,
    REVIEW_URLS,
    check_review_after_end,
    check_review_endpoints_in_play,
)
from tests.games.test_reviews import against_bots, logged_in, to_decision, two_people


@pytest.mark.django_db
@pytest.mark.parametrize("key", list(GAMES))
def test_review_and_hint_show_each_viewer_only_what_they_may_see(alice, bob, carol, key):
    game = two_people(alice, bob, key)
    viewers = [(0, logged_in(alice)), (1, logged_in(bob)), (None, logged_in(carol))]
    visitor = Client()
    check_review_endpoints_in_play(game.pk, viewers)  # version 0: checked
    for url in REVIEW_URLS:
        assert visitor.get(f"/games/{game.pk}/{url}").status_code == 404
    assert visitor.post(f"/games/{game.pk}/hint/").status_code == 302  # to log in
    game = play_out(game)
    checked = check_review_after_end(game.pk, [*viewers, (None, visitor)])
    assert checked > 0, "no player's turn was shown"
    # A finished game has no hint either.
    refused = viewers[0][1].post(f"/games/{game.pk}/hint/")
    assert refused.status_code == 403 and "review" in refused.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("key", list(GAMES))
def test_a_hint_reads_only_the_askers_own_view(alice, key):
    # The bots' racks and the stock dealt again behind the asker's back: the same hint.
    game = to_decision(against_bots(alice, key, bots=2), 0)
    client = logged_in(alice)
    first = client.post(f"/games/{game.pk}/hint/").content.decode()
    engine = services.game_of(game.table)
    state = engine.load(game.state)
    own = engine.reviewer().position(engine.player_view(state, 0))["rack"]
    assert all(code in own for code in DRAWN.findall(first))
    rng = random.Random(game.pk)
    for _ in range(3):
        other = engine.dump(engine.resample_hidden(state, 0, rng))
        Game.objects.filter(pk=game.pk).update(state=other)
        again = client.post(f"/games/{game.pk}/hint/").content.decode()
        assert strip_token(again) == strip_token(first)
    assert Hint.objects.filter(game=game).count() == 1


def strip_token(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
