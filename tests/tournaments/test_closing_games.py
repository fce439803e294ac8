"""A match decided by the organiser while its game is being played (an adjudication, a
withdrawn player's forfeit) ends that game: it is finished through ``games.play.services``, no
move is accepted any more, no next game can be dealt, and the players' open pages redraw
over their socket to say the game is over."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from games.engine import get_game
from games.models import Game, Table
from games.play import services as games
from games.tables import lifecycle
from tests.games.test_game_consumer import session_cookie, socket
from tests.tournaments.helpers import players, tournament
from tournaments import services
from tournaments.models import Match

STOPPED_TEXT = "The organiser ended this game before its end"


def running_match(organiser, game_type: str = "rummikub") -> tuple[Match, Game]:
    event = tournament(organiser, game_type=game_type, seat_count=2, rounds=1)
    services.open_registration(event, organiser)
    for user in players(2):
        services.register(event, user)
    round_ = services.confirm_round(services.propose_round(event, organiser), organiser)
    match = Match.objects.select_related("table").get(round=round_)
    return match, Game.objects.get(table=match.table)


def assert_closed(match: Match, game: Game, version_before: int) -> None:
    game.refresh_from_db()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.adjudicated
    assert game.status == Game.Status.FINISHED and game.to_act == []
    assert game.version == version_before + 1 and game.deadline is None
    assert Table.objects.get(pk=match.table_id).status == Table.Status.FINISHED
    engine = get_game(match.table.game_type)
    state = engine.load(game.state)
    assert game.scores == list(engine.unfinished_scores(state))
    seat = next(iter(engine.to_act(state)))  # the engine would still take this move...
    move = engine.random_action(state, seat, random.Random(1))
    with pytest.raises(games.GameMovedOn):  # ...the site no longer does
        games.play(game.pk, seat, move, game.version)
    with pytest.raises(lifecycle.TableError):
        lifecycle.next_game(match.table)


@pytest.mark.django_db
@pytest.mark.parametrize("game_type", ["remi", "rummikub", "basic-rummy"])
def test_a_confirmed_forfeit_adjudication_ends_the_game(alice, game_type):
    match, game = running_match(alice, game_type)
    before = game.version
    services.propose_adjudication(match.round, "forfeit", alice)
    services.confirm_adjudication(match.round, alice, "deadline passed")
    assert_closed(match, game, before)


@pytest.mark.django_db
def test_a_position_adjudication_ends_the_game_too(alice):
    match, game = running_match(alice, "remi")
    before = game.version
    services.propose_adjudication(match.round, "position", alice)
    services.confirm_adjudication(match.round, alice, "deadline passed")
    assert_closed(match, game, before)


@pytest.mark.django_db
def test_a_withdrawal_with_a_forfeit_ends_the_game_and_the_page_says_so(alice):
    match, game = running_match(alice)
    before = game.version
    services.withdraw_player(
        match.tournament, match.table.seats.get(position=0).user, alice, running="forfeit"
    )
    assert_closed(match, game, before)
    client = Client()
    client.force_login(match.table.seats.get(position=1).user)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert STOPPED_TEXT in page
    assert 'id="action-form"' not in page


@pytest.mark.django_db(transaction=True)
def test_the_players_open_pages_redraw_when_the_organiser_ends_the_game(alice):
    match, game = running_match(alice)
    users = [seat.user for seat in match.table.seats.order_by("position")]
    cookies = [session_cookie(user) for user in users]
    event = match.tournament

    async def scenario() -> list[str]:
        sockets = [socket(game, cookie, f"?version={game.version}") for cookie in cookies]
        for ws in sockets:
            connected, _ = await ws.connect()
            assert connected
        await database_sync_to_async(services.withdraw_player)(
            event, users[0], alice, running="forfeit"
        )
        received = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return received

    for html in async_to_sync(scenario)():
        assert STOPPED_TEXT in html
        assert 'id="action-form"' not in html
