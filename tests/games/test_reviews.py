"""The review of a finished game (reviews/): computed once by a real worker when a game ends,
shown with its progress before it is ready, never for a game being played; and the hint at
casual tables against bots, refused elsewhere, counted on the finished game."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games.engine import GAMES
from games.models import Game, Seat, Table
from games.play import services
from games.tables import lifecycle
from reviews import services as review_services
from reviews.models import GameReview, Hint
from tests.conftest import wait_for
from tests.games.playing import play_out

HTMX = {"HTTP_HX_REQUEST": "true"}


def against_bots(user, key: str, *, rated: bool = False, bots: int = 1) -> Game:
    """An unrated (or rated) table of ``user`` against ``bots`` hard bots, started."""
    table = lifecycle.create_arranged_table(
        user, [user, *["hard"] * bots], game_type=key, rated=rated
    )
    return lifecycle.start_table(table, user)


def two_people(alice, bob, key: str) -> Game:
    table = lifecycle.create_table(alice, game_type=key, seat_count=2)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def to_decision(game: Game, seat: int) -> Game:
    """Bots' easy moves for every seat until ``seat`` is to choose what to lay (its draw
    done), as a hint needs."""
    engine = services.game_of(game.table)
    reviewer = engine.reviewer()
    rng = random.Random(5)
    for _ in range(400):
        game = Game.objects.select_related("table").get(pk=game.pk)
        assert game.status == Game.Status.PLAYING
        state = engine.load(game.state)
        if seat in engine.to_act(state) and reviewer.decides(engine.player_view(state, seat)):
            return game
        mover = seat if seat in game.to_act else min(game.to_act)
        action = engine.choose(engine.player_view(state, mover), "easy", rng)
        services.play(game.pk, mover, action, game.version)
    pytest.fail("the seat never came to a decision")


# --- the review -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_finished_game_of_each_kind_is_reviewed_once_by_the_worker(alice, bob, celery_worker):
    # One worker for the four games: starting one costs seconds.
    games = {key: play_out(two_people(alice, bob, key)) for key in GAMES}
    for key, game in games.items():
        assert GameReview.objects.filter(game=game).exists()  # made in the move's transaction
        wait_for(
            lambda game=game: GameReview.objects.get(game=game).status == GameReview.Status.DONE,
            timeout=120,
            interval=0.2,
            what=f"the review of game {game.pk} (worker log: {celery_worker.log})",
        )
        review = GameReview.objects.get(game=game)
        assert review.walked == review.moves == game.version
        data = review.data
        assert data["game"] == key and len(data["summary"]) == 2
        assert data["turns"], "a whole game has turns to judge"
        assert all(0 <= row["accuracy"] <= 100 for row in data["summary"])
        assert review.cpu_seconds > 0
        finished_at = review.finished_at
        # Computed once: a second message finds nothing to do and changes nothing.
        assert review_services.compute(game.pk) is False
        assert GameReview.objects.get(game=game).finished_at == finished_at
        page = logged_in(alice).get(f"/games/{game.pk}/review/").content.decode()
        assert 'data-seat-summary="1"' in page and "review-turn" in page


@pytest.mark.django_db
def test_the_review_shows_its_progress_until_it_is_ready(alice, bob):
    game = play_out(two_people(alice, bob, "remi"))
    client = logged_in(alice)
    GameReview.objects.filter(game=game).update(
        status=GameReview.Status.RUNNING, moves=40, walked=10
    )
    page = client.get(f"/games/{game.pk}/review/").content.decode()
    assert re.search(r'<progress id="review-progress" max="100" value="25"', page)
    assert 'hx-trigger="every 2s"' in page  # the body polls itself
    # The worker's step, here in the test's process: the next poll shows the review.
    GameReview.objects.filter(game=game).update(status=GameReview.Status.PENDING)
    assert review_services.compute(game.pk) is True
    body = client.get(f"/games/{game.pk}/review/", **HTMX).content.decode()
    assert "review-progress" not in body and 'hx-trigger="every 2s"' not in body
    assert 'data-seat-summary="0"' in body


@pytest.mark.django_db
def test_no_review_of_a_game_being_played(alice, bob):
    game = two_people(alice, bob, "rummikub")
    for client in (logged_in(alice), logged_in(bob), Client()):
        for url in ("review/", "review/step/?step=0", "review/hints/"):
            response = client.get(f"/games/{game.pk}/{url}")
            assert response.status_code in (404, 302), (url, response.status_code)
            assert response.status_code == 404 or "/login" in response["Location"]
    assert not GameReview.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_the_finished_game_page_links_to_its_review_and_shows_hints_used(alice):
    game = against_bots(alice, "basic-rummy")
    game = to_decision(game, 0)
    client = logged_in(alice)
    assert client.post(f"/games/{game.pk}/hint/").status_code == 200
    game = play_out(game)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/review/"' in page
    assert f'hx-get="/games/{game.pk}/review/hints/"' in page
    counts = client.get(f"/games/{game.pk}/review/hints/").content.decode()
    assert "Hints used:" in counts and re.search(r"\b1\b", counts)
    # The game in play showed no link: only its end does.
    running = client.get(f"/games/{against_bots(alice, 'remi').pk}/").content.decode()
    assert "/review/" not in running


@pytest.mark.django_db
def test_a_step_of_the_replay_shows_the_players_best_play_and_a_spectator_none(alice, bob, carol):
    game = play_out(two_people(alice, bob, "remi"))
    review_services.review_for(game)
    assert review_services.compute(game.pk)
    data = GameReview.objects.get(game=game).data
    mine = next(t for t in data["turns"] if t["seat"] == 0)
    step = mine["step"]
    shown = logged_in(alice).get(f"/games/{game.pk}/review/step/?step={step}").content.decode()
    pieces = re.findall(r'data-piece="([^"]+)"', shown)
    assert sorted(pieces) == sorted(mine["position"]["rack"])
    watcher = logged_in(carol).get(f"/games/{game.pk}/review/step/?step={step}").content.decode()
    assert "data-piece" not in watcher
    bad = logged_in(alice).get(f"/games/{game.pk}/review/step/?step=x")
    assert bad.status_code == 400
    replay = logged_in(alice).get(f"/games/{game.pk}/replay/?step={step}").content.decode()
    assert "data-replay-best" in replay and f"review/step/?step={step}" in replay


# --- the hint ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("key", list(GAMES))
def test_a_hint_at_an_unrated_table_against_bots_is_the_planners_best_play(alice, key):
    game = to_decision(against_bots(alice, key), 0)
    client = logged_in(alice)
    button = client.get(f"/games/{game.pk}/hint/")
    assert button.status_code == 200 and "data-hint" in button.content.decode()
    answer = client.post(f"/games/{game.pk}/hint/")
    assert answer.status_code == 200
    html = answer.content.decode()
    engine = services.game_of(game.table)
    state = engine.load(game.state)
    view = engine.player_view(state, 0)
    best = engine.reviewer().best(view, lambda: False)
    assert re.findall(r'data-piece="([^"]+)"', html) == list(best.placed)
    # Only the asker's own rack or hand can be in it.
    own = engine.reviewer().position(view)["rack"]
    assert all(code in own for code in best.placed)
    assert Hint.objects.filter(game=game, seat=0).count() == 1
    client.post(f"/games/{game.pk}/hint/")  # the same position: counted once
    assert Hint.objects.filter(game=game, seat=0).count() == 1


@pytest.mark.django_db
def test_the_hint_is_refused_in_a_rated_game(alice):
    game = to_decision(against_bots(alice, "remi", rated=True), 0)
    client = logged_in(alice)
    assert client.get(f"/games/{game.pk}/hint/").status_code == 204  # no button
    refused = client.post(f"/games/{game.pk}/hint/")
    assert refused.status_code == 403
    assert "Hints are off in rated games." in refused.content.decode()
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_the_hint_is_refused_in_a_tournament_game(alice):
    from tournaments.models import Match, Round, Tournament

    game = to_decision(against_bots(alice, "remi"), 0)
    tournament = Tournament.objects.create(name="Cup", organiser=alice)
    round_ = Round.objects.create(tournament=tournament, number=1)
    Match.objects.create(tournament=tournament, round=round_, index=0, table=game.table)
    refused = logged_in(alice).post(f"/games/{game.pk}/hint/")
    assert refused.status_code == 403
    assert "Hints are off in tournament games." in refused.content.decode()
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_the_hint_is_refused_at_a_table_with_two_people(alice, bob):
    game = two_people(alice, bob, "rummikub")
    seat = min(game.to_act)
    user = Seat.objects.get(table=game.table, position=seat).user
    client = logged_in(user)
    assert client.get(f"/games/{game.pk}/hint/").status_code == 204
    refused = client.post(f"/games/{game.pk}/hint/", **HTMX)
    # htmx swaps the refusal into the hint's place, so it comes as a 200 there.
    assert refused.status_code == 200
    assert "only given at a table where you play against bots alone" in refused.content.decode()
    assert logged_in(user).post(f"/games/{game.pk}/hint/").status_code == 403
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_the_hint_is_refused_before_drawing_and_to_a_spectator(alice, carol):
    game = against_bots(alice, "basic-rummy")
    engine = services.game_of(game.table)
    state = engine.load(game.state)
    if 0 in engine.to_act(state):
        before = logged_in(alice).post(f"/games/{game.pk}/hint/")
        assert before.status_code == 409 and "after drawing" in before.content.decode()
    Table.objects.filter(pk=game.table_id).update(is_public=True)
    watcher = logged_in(carol).post(f"/games/{game.pk}/hint/")
    assert watcher.status_code == 403 and "Only a player" in watcher.content.decode()
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_a_review_left_waiting_is_sent_again_once_by_the_pages_that_poll_it(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    game = play_out(two_people(alice, bob, "thai-rummy"))
    long_ago = timezone.now() - timedelta(hours=1)
    GameReview.objects.filter(game=game).update(sent_at=long_ago)
    client = logged_in(alice)
    client.get(f"/games/{game.pk}/review/", **HTMX)
    resent = GameReview.objects.get(game=game).sent_at
    assert resent > long_ago
    client.get(f"/games/{game.pk}/review/", **HTMX)  # the next poll, at once: not again
    assert GameReview.objects.get(game=game).sent_at == resent
    # A finished review is never sent again.
    assert review_services.compute(game.pk)
    GameReview.objects.filter(game=game).update(sent_at=long_ago)
    client.get(f"/games/{game.pk}/review/")
    assert GameReview.objects.get(game=game).sent_at == long_ago
