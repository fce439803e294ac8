"""Pocket Rummy played through the real site, as any registered game is: the new-table form
and the lobby, a live game over the socket, the replay, the deal check, a correspondence
clock, a tournament round and a rating.  Nothing here reaches into a shared module for it:
the one line in ``conftest.py`` is all the site is told."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Action, Game, Table
from games.play import services
from games.play.consumers import ACTED
from games.tables import lifecycle
from games.tasks import sweep_deadlines
from remi_site.asgi import application
from reviews import services as review_services
from reviews.models import GameReview
from tournaments import services as tournament_services
from tournaments.models import Match, Rating, RatingChange, Tournament

from .engine import GAME

KEY = GAME.key
SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
NEW_TABLE = {
    "game_type": KEY,
    "preset": KEY,
    "seat_count": "2",
    "bots": "0",
    "bot_level": "easy",
    "pace": "live",
    "move_seconds": "0",
    "visibility": "public",
}


def started(alice, bob, **options) -> Game:
    table = lifecycle.create_table(alice, game_type=KEY, seat_count=2, **options)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(Table.objects.get(pk=table.pk), alice)


def play_out(game: Game, seed: str = "out") -> Game:
    rng = random.Random(seed)
    for _ in range(100):
        game = Game.objects.get(pk=game.pk)
        if game.status == Game.Status.FINISHED:
            return game
        (seat,) = game.to_act
        action = GAME.random_action(GAME.load(game.state), seat, rng)
        services.play(game.pk, seat, str(action), game.version)
    raise AssertionError("the game did not end")


def next_move(game: Game) -> tuple[int, str]:
    fresh = Game.objects.get(pk=game.pk)
    (seat,) = fresh.to_act
    return seat, str(GAME.timeout_action(GAME.load(fresh.state), seat))


@pytest.mark.django_db
def test_a_table_is_offered_made_and_listed_in_the_lobby(client, alice, bob):
    client.force_login(alice)
    form = client.get(reverse("games:table_create"), {"game_type": KEY}).content.decode()
    assert f'<option value="{KEY}" selected>Pocket Rummy</option>' in form
    response = client.post(reverse("games:table_create"), NEW_TABLE)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.game_type == KEY and table.rules["hand_size"] == 3
    assert "Pocket Rummy" in client.get(reverse("games:lobby")).content.decode()
    client.force_login(bob)
    assert client.post(reverse("games:table_join", args=[table.pk])).status_code in (200, 302)
    client.force_login(alice)
    client.post(reverse("games:table_start", args=[table.pk]))
    game = Game.objects.get(table=table)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'id="game-rack"' in page and "How to play" in page
    rules = client.get(reverse("games:rules_game", args=[KEY])).content.decode()
    assert "<h1>How to play Pocket Rummy</h1>" in rules


def drawn_tile(game: Game, version: int) -> str:
    (event,) = Action.objects.get(game=game, version=version).events
    return str(event["secret"]["tile"])


def cookie_of(user) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={value}".encode())]


@pytest.mark.django_db(transaction=True)
def test_a_live_game_is_played_to_its_end_over_the_socket(alice, bob):
    game = started(alice, bob)

    async def opened(user) -> WebsocketCommunicator:
        cookie = await sync_to_async(cookie_of)(user)
        ws = WebsocketCommunicator(
            application, f"/ws/games/{game.pk}/?version=0", headers=[*SITE, *cookie]
        )
        connected, _ = await ws.connect(timeout=5)
        assert connected
        return ws

    async def scenario() -> list[str]:
        sockets = [await opened(alice), await opened(bob)]
        seen = []
        for _ in range(40):
            fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
            if fresh.status == Game.Status.FINISHED:
                break
            seat, notation = await sync_to_async(next_move)(game)
            frame = {"version": str(fresh.version), "verb": "notation", "notation": notation}
            await sockets[seat].send_to(text_data=json.dumps(frame))
            answer = await sockets[seat].receive_from(timeout=10)
            assert answer.startswith(ACTED), answer[:500]
            other = await sockets[1 - seat].receive_from(timeout=10)
            if notation == "draw":
                # The tile drawn is the drawer's alone: the other seat reads "drew a tile".
                tile = await sync_to_async(drawn_tile)(game, fresh.version + 1)
                assert f"drew {tile}" in answer and f"drew {tile}" not in other
                assert "drew a tile" in other
            seen.append(other)
        for ws in sockets:
            await ws.disconnect(timeout=10)
        return seen

    seen = async_to_sync(scenario)()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert Action.objects.filter(game=game).count() == game.version == len(seen)
    assert f'title="Moves played">v{game.version}<' in seen[-1]
    assert 'id="game-result"' in seen[-1]


@pytest.mark.django_db
def test_the_finished_game_replays_and_its_deal_checks(client, alice, bob):
    game = play_out(started(alice, bob))
    client.force_login(alice)
    url = reverse("games:game_replay", args=[game.pk])
    page = client.get(url).content.decode()
    assert f"Replay of game {game.number + 1}" in page
    assert 'class="game replay pocket-rummy"' in page and 'class="final-racks"' in page
    step = client.get(url, {"step": 1}, HTTP_HX_REQUEST="true").content.decode()
    assert step.lstrip().startswith('<div id="replay-step"')
    assert "drew" in step
    seed = GAME.ctx(GAME.load(game.state)).seed
    deal = client.get(reverse("games:game_deal", args=[game.pk]), {"seed": seed})
    assert deal.status_code == 200
    checked = deal.content.decode()
    assert 'data-verified="true"' in checked and "The deal checks out." in checked
    final = GAME.load(game.state)
    dealt = GAME.deal_of(GAME.new_game(GAME.rules_of(final), 2, seed, dealer=final.dealer))
    assert " ".join(dealt.hands[0]) in checked
    wrong = client.get(reverse("games:game_deal", args=[game.pk]), {"seed": "not it"})
    assert 'data-verified="false"' in wrong.content.decode()


@pytest.mark.django_db
def test_the_finished_game_is_reviewed(client, alice, bob):
    game = play_out(started(alice, bob), "review")
    review_services.review_for(game)
    assert review_services.compute(game.pk)
    assert GameReview.objects.get(game=game).status == GameReview.Status.DONE
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/review/").content.decode()
    assert 'data-seat-summary="0"' in page


@pytest.mark.django_db
def test_a_correspondence_clock_plays_the_timeout_move(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        game = started(
            alice,
            bob,
            pace=Table.Pace.SLOW,
            move_seconds=24 * 3600,
            on_timeout=Table.OnTimeout.MOVE,
        )
    assert game.deadline is not None
    (late,) = game.to_act
    hand = GAME.load(game.state).hands[late]
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert sweep_deadlines() == 0
    with time_machine.travel(timezone.now() + timedelta(hours=25)):
        assert sweep_deadlines() == 1
        game = Game.objects.get(pk=game.pk)
        # The whole turn is played for the late seat: its draw, then its highest tile.
        moves = list(Action.objects.filter(game=game).order_by("version"))
        assert [m.seat for m in moves] == [late, late]
        assert moves[0].notation == "draw"
        held = [*hand, moves[0].events[0]["secret"]["tile"]]
        verb, thrown = moves[1].notation.split()
        # A highest tile (two colours may tie for it).
        assert verb == "discard" and thrown in held
        assert int(thrown[1:]) == max(int(tile[1:]) for tile in held)
        if game.status == Game.Status.FINISHED:
            # That discard left a run: the late seat went out.
            assert game.to_act == [] and GAME.load(game.state).winner == late
        else:
            # The next player's clock starts now: a full day again.
            assert game.to_act == [1 - late]
            assert game.deadline > timezone.now() + timedelta(hours=23)


@pytest.mark.django_db
def test_a_tournament_round_is_played_and_rates_its_players(alice, bob, carol):
    event = Tournament.objects.create(
        organiser=alice,
        name="Pocket cup",
        game_type=KEY,
        seat_count=2,
        format=Tournament.Format.KNOCKOUT,
        rounds=1,
    )
    tournament_services.open_registration(event, alice)
    tournament_services.register(event, bob)
    tournament_services.register(event, carol)
    tournament_services.confirm_round(tournament_services.propose_round(event, alice), alice)
    (match,) = Match.objects.filter(tournament=event)
    assert match.table.game_type == KEY
    play_out(Game.objects.get(table=match.table), "cup")
    match.refresh_from_db()
    event.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert event.status == Tournament.Status.FINISHED


@pytest.mark.django_db
def test_a_rated_game_rates_both_players(alice, bob):
    game = play_out(started(alice, bob, rated=True), "rated")
    assert {c.user_id for c in RatingChange.objects.filter(game=game)} == {alice.pk, bob.pk}
    ratings = Rating.objects.filter(game_type=KEY)
    assert sorted(r.user_id for r in ratings) == sorted([alice.pk, bob.pk])
    assert all(r.games == 1 for r in ratings)
