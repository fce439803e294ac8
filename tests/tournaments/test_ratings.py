"""Rated tables: a finished game moves its players' ratings once, people only."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games.engine import get_game
from games.models import Game, Table
from games.play import services
from games.signals import game_finished
from games.tables import lifecycle
from tournaments.models import Rating, RatingChange
from tournaments.rating_maths import NEW_PLAYER, places_from_scores

pytestmark = pytest.mark.django_db


def play_to_the_end(game: Game, seed: str) -> Game:
    """Random legal moves for every seat the game waits for, through services.play."""
    engine = get_game(game.table.game_type)
    rng = random.Random(seed)
    for _ in range(3000):
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            return game
        state = engine.load(game.state)
        seat = game.to_act[0]
        services.play(game.pk, seat, engine.random_action(state, seat, rng), game.version)
    raise AssertionError("the game did not end in 3000 moves")


def rated_game(owner, *others, game_type: str = "rummikub", bots: tuple[str, ...] = ()) -> Game:
    seats = 1 + len(bots) + len(others)
    table = lifecycle.create_table(
        owner, game_type=game_type, seat_count=seats, bots=list(bots), rated=not bots
    )
    for user in others:
        lifecycle.join_table(table, user)
    if bots:
        # The lobby refuses a rated table with bots; an organiser could still tick "rated"
        # in the admin, and the bot seats must then be left out of the rating.
        Table.objects.filter(pk=table.pk).update(rated=True)
    return lifecycle.start_table(Table.objects.get(pk=table.pk), owner)


def test_a_finished_rated_game_moves_each_players_rating_once(alice, bob, carol):
    game = play_to_the_end(rated_game(alice, bob, carol), "three people")
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {alice.pk, bob.pk, carol.pk}
    seat_of = {seat.user_id: seat.position for seat in game.table.seats.all()}
    places = places_from_scores(game.scores)
    for user_id, change in changes.items():
        assert change.place == places[seat_of[user_id]]
        assert (change.mu_before, change.sigma_before) == (NEW_PLAYER.mu, NEW_PLAYER.sigma)
        rating = Rating.objects.get(user_id=user_id, game_type="rummikub")
        assert (rating.mu, rating.sigma, rating.games) == (change.mu_after, change.sigma_after, 1)
    best = min(changes.values(), key=lambda c: c.place)
    worst = max(changes.values(), key=lambda c: c.place)
    assert best.place < worst.place
    assert best.mu_after > NEW_PLAYER.mu > worst.mu_after


def test_an_unrated_table_moves_no_rating(alice, bob):
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    play_to_the_end(lifecycle.start_table(table, alice), "unrated")
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_retried_finish_moves_the_ratings_once(alice, bob):
    game = play_to_the_end(rated_game(alice, bob), "retried")
    before = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    # What a retry of the finishing step would do: announce the same finished game again.
    game_finished.send(sender=Game, game=game, seats=services.table_seats(game.table_id))
    with pytest.raises(services.GameMovedOn):
        engine = get_game("rummikub")
        services.play(game.pk, 0, engine.parse_action("draw"), game.version - 1)
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_bot_seats_are_never_rated(alice, bob):
    game = play_to_the_end(rated_game(alice, bob, bots=("easy",)), "with a bot")
    assert {c.user_id for c in RatingChange.objects.filter(game=game)} == {alice.pk, bob.pk}
    people = [s.position for s in game.table.seats.all() if s.user_id]
    places = places_from_scores([game.scores[p] for p in people])
    assert sorted(RatingChange.objects.values_list("place", flat=True)) == sorted(places)


def test_a_person_alone_with_bots_is_not_rated(alice):
    play_to_the_end(rated_game(alice, bots=("easy", "easy")), "alone")
    assert not RatingChange.objects.exists()


def test_a_rated_table_is_refused_bots(client, alice):
    with pytest.raises(lifecycle.TableError, match="people only"):
        lifecycle.create_table(alice, seat_count=2, bots=["easy"], rated=True)
    client.force_login(alice)
    data = {
        "game_type": "rummikub",
        "preset": get_game("rummikub").default_preset,
        "seat_count": 3,
        "bots": 1,
        "bot_level": "easy",
        "pace": "live",
        "move_seconds": 0,
        "visibility": "public",
        "rated": "on",
    }
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 400  # the form comes back with its errors
    assert "A rated table is for people only" in response.content.decode()
    assert not Table.objects.exists()


def test_ratings_show_in_the_lobby_on_the_leaderboard_and_as_a_chart(client, alice, bob):
    play_to_the_end(rated_game(alice, bob), "first")
    play_to_the_end(rated_game(alice, bob), "second")
    alice_rating = Rating.objects.get(user=alice, game_type="rummikub")
    assert alice_rating.games == 2

    open_table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2, rated=True)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert f'<span class="seat-rating" title="Rating">{alice_rating.shown}?</span>' in lobby
    assert open_table.rated and "table-rated" in lobby

    board = client.get(reverse("tournaments:leaderboard", args=["rummikub"])).content.decode()
    assert 'id="leaderboard-provisional"' in board
    assert f"<td>{alice_rating.shown}?</td>" in board
    assert client.get(reverse("tournaments:leaderboard", args=["chess"])).status_code == 404

    client.force_login(alice)
    profile = client.get(reverse("accounts:profile")).content.decode()
    assert 'class="rating-chart"' in profile
    points = profile.split('<polyline points="')[1].split('"')[0].split()
    assert len(points) == 3  # the starting rating, then one point per rated game
