"""The players' tournament pages: the list, a tournament's page, registering and
withdrawing, and the page's socket updating standings and tables live, per viewer, without
anything of a rack."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.play.news import publish
from remi_site.asgi import application
from tests.conftest import make_user
from tests.games.test_game_consumer import HOST, ORIGIN, session_cookie
from tests.partial_renders import counted_renders
from tests.tournaments.helpers import players, tournament
from tests.tournaments.test_ratings import play_to_the_end
from tournaments import presenters, services
from tournaments.live import CHANGED, group_name
from tournaments.models import Match, Tournament

TILE = re.compile(r"\b[RYBK](?:1[0-3]|[1-9])\b")


def detail(client, event: Tournament) -> str:
    response = client.get(reverse("tournaments:detail", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_list_shows_upcoming_running_and_finished_but_never_drafts(client, alice):
    tournament(alice, name="Secret draft")
    for name, status in (("Spring open", "registration"), ("Club night", "running")):
        tournament(alice, name=name, status=status)
    tournament(alice, name="Last winter", status="finished")
    page = client.get(reverse("tournaments:list")).content.decode()
    upcoming, running, finished = (
        page[page.index(f'id="{s}"') :] for s in ("upcoming", "running", "finished")
    )
    assert "Spring open" in upcoming and "Spring open" not in running
    assert "Club night" in running and "Club night" not in finished
    assert "Last winter" in finished
    assert "Secret draft" not in page
    draft = Tournament.objects.get(name="Secret draft")
    assert client.get(reverse("tournaments:detail", args=[draft.pk])).status_code == 404


@pytest.mark.django_db
def test_a_player_registers_and_withdraws_on_the_page(client, alice, bob):
    event = tournament(alice, description="Bring snacks.")
    services.open_registration(event, alice)
    page = detail(client, event)
    assert "Log in to register." in page and "Bring snacks." in page
    assert "Swiss" in page and "3 rounds" in page and "3 seats" in page

    client.force_login(bob)
    assert 'id="register-button"' in detail(client, event)
    answer = client.post(
        reverse("tournaments:register", args=[event.pk]), headers={"HX-Request": "true"}
    )
    html = answer.content.decode()
    assert 'id="tournament-live" hx-swap-oob="true"' in html
    assert 'id="withdraw-button"' in html and "bob" in html and "1000?" in html
    assert event.registrations.get().user == bob

    client.post(reverse("tournaments:withdraw", args=[event.pk]))
    assert event.registrations.get().status == "withdrawn"
    assert 'id="register-button"' in detail(client, event)

    services.close_registration(event, alice)
    refused = client.post(reverse("tournaments:register", args=[event.pk]), follow=True)
    assert "Registration is not open." in refused.content.decode()
    assert event.registrations.get().status == "withdrawn"


@pytest.mark.django_db
def test_the_page_shows_every_tiebreak_the_rounds_tables_and_no_tile(client, alice):
    event = tournament(alice, seat_count=2)
    services.open_registration(event, alice)
    for user in players(3):
        services.register(event, user)
    round_ = services.confirm_round(services.propose_round(event, alice), alice)
    page = detail(client, event)
    for column in ("Match points", "Game score", "Wins", "Head-to-head", "Opponents' points"):
        assert column in page
    match = Match.objects.get(round=round_, status=Match.Status.PLAYING)
    game = Game.objects.get(table=match.table)
    assert reverse("games:game", args=[game.pk]) in page
    assert "to play" in page and "Sitting out:" in page
    assert not TILE.findall(page)


@pytest.mark.django_db(transaction=True)
def test_the_socket_sends_new_standings_when_a_match_ends_for_each_viewer(alice, bob, carol):
    event = tournament(alice, seat_count=2, rounds=1)
    services.open_registration(event, alice)
    services.register(event, bob)
    services.register(event, carol)
    round_ = services.confirm_round(services.propose_round(event, alice), alice)
    match = Match.objects.get(round=round_)
    game = Game.objects.get(table=match.table)

    viewers = [session_cookie(bob), session_cookie(alice)]

    async def scenario() -> tuple[list[str], list[str]]:
        sockets = [
            WebsocketCommunicator(
                application, f"/ws/tournaments/{event.pk}/", headers=[ORIGIN, HOST, cookie]
            )
            for cookie in viewers
        ]
        first = []
        for ws in sockets:
            connected, _ = await ws.connect()
            assert connected
            first.append(await ws.receive_from(timeout=5))
        await database_sync_to_async(play_to_the_end)(game, "socket")
        last = ["", ""]
        for i, ws in enumerate(sockets):
            # A message per move; the last one follows the result.  The tournament's own
            # status, not a table card's (a table finishes a message before its tournament).
            while 'hx-swap-oob="true" data-status="finished"' not in last[i]:
                last[i] = await ws.receive_from(timeout=10)
            await ws.disconnect()
        return first, last

    first, last = async_to_sync(scenario)()
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    for html in first:
        assert 'id="tournament-live" hx-swap-oob="true"' in html
        assert 'class="match-points">0<' in html
    winner = next(row for row in event.standings if row["rank"] == 1)
    for html in last:
        assert 'class="match-points">2<' in html
        assert "place 1" in html
        assert not TILE.findall(html)
    assert winner["match_points"] == 2
    # Rendered per viewer: bob played, so his own row is marked; alice only watched.
    assert 'class="viewer"' in last[0] and 'class="viewer"' not in last[1]


@pytest.mark.django_db(transaction=True)
def test_the_socket_refuses_a_draft_or_unknown_tournament(alice):
    draft = tournament(alice)

    async def attempt(path: str) -> bool:
        ws = WebsocketCommunicator(application, path, headers=[ORIGIN, HOST])
        connected, _ = await ws.connect()
        await ws.disconnect()
        return connected

    assert not async_to_sync(attempt)(f"/ws/tournaments/{draft.pk}/")
    assert not async_to_sync(attempt)("/ws/tournaments/999999/")


@pytest.mark.django_db(transaction=True)
def test_a_change_renders_the_live_part_once_per_kind_of_viewer_not_per_socket(alice, bob, carol):
    """Issue 27, fault 5: eight sockets on the page, one change: one render for the visitors,
    one for logged-in strangers (who may register), one for each player of the tournament
    (their own row marked), each the same as a render for that viewer alone."""
    event = tournament(alice, seat_count=2, rounds=1)
    services.open_registration(event, alice)
    services.register(event, bob)
    services.register(event, carol)
    dave, erin = make_user("dave"), make_user("erin")
    viewers = [None, None, None, dave, erin, bob, bob, carol]
    cookies = [session_cookie(v) if v is not None else None for v in viewers]
    path = f"/ws/tournaments/{event.pk}/"

    async def scenario(renders) -> list[str]:
        sockets = []
        for cookie in cookies:
            ws = WebsocketCommunicator(
                application, path, headers=[ORIGIN, HOST, *([cookie] if cookie else [])]
            )
            connected, _ = await ws.connect()
            assert connected
            await ws.receive_from(timeout=5)
            sockets.append(ws)
        renders.clear()
        await database_sync_to_async(publish)(group_name(event.pk), dict(CHANGED))
        seen = [await ws.receive_from(timeout=5) for ws in sockets]
        for ws in sockets:
            await ws.disconnect()
        return seen

    with counted_renders() as renders:
        seen = async_to_sync(scenario)(renders)
        assert renders["live"] == 4
    for viewer, html in zip(viewers, seen, strict=True):
        with translation.override("en"):
            assert html == presenters.render_live(event.pk, viewer or AnonymousUser())
    assert 'id="register-button"' in seen[3] and 'id="register-button"' not in seen[0]
    assert "You are registered." in seen[5] and "You are registered." not in seen[3]
