"""Players are told when a round starts: a notice per seat through the notifications app,
shown on their "My games" page and the tournament page while the game is played, and an
email for those who want "your turn" emails, each once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.tables import lifecycle
from notifications.kinds import Kind
from notifications.models import Notice
from tests.tournaments.helpers import players, tournament
from tournaments import services
from tournaments.models import Match
from tournaments.tasks import send_round_started

pytestmark = pytest.mark.django_db

TOLD = "Round 1 of Club evening started: your table is ready."


def started_round(organiser, count: int = 4):
    event = tournament(organiser, seat_count=2, rounds=2)
    services.open_registration(event, organiser)
    field = players(count)
    for user in field:
        services.register(event, user)
    round_ = services.confirm_round(services.propose_round(event, organiser), organiser)
    return event, field, round_


def page(user, url: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


def test_every_player_of_the_round_gets_one_notice_for_their_own_table(alice):
    event, field, round_ = started_round(alice)
    notices = Notice.objects.filter(kind=Kind.ROUND)
    assert sorted(n.user_id for n in notices) == sorted(u.pk for u in field)
    for match in Match.objects.filter(round=round_):
        game = Game.objects.get(table=match.table)
        for position, user_id in enumerate(match.players):
            notice = notices.get(user_id=user_id)
            assert (notice.game_id, notice.seat, notice.turn) == (game.pk, position, "round-1")
            assert notice.params == {
                "round": 1,
                "tournament": "Club evening",
                "tournament_id": event.pk,
            }


def test_the_notice_is_on_the_players_pages_and_gone_when_the_game_is(alice, carol):
    event, field, round_ = started_round(alice)
    match = Match.objects.filter(round=round_).first()
    game = Game.objects.get(table=match.table)
    player = next(u for u in field if u.pk == match.players[0])
    link = f'href="{reverse("games:game", args=[game.pk])}"'
    # My games fetches the notices once loaded (hx-get); the tournament page has them.
    notices_url = reverse("notifications:notices")
    assert f'hx-get="{notices_url}"' in page(player, reverse("games:my_games"))
    for url in (notices_url, event.get_absolute_url()):
        html = page(player, url)
        assert TOLD in html and link in html
        assert TOLD not in page(carol, url)  # nobody else's pages
    lifecycle.stop_table(match.table)
    assert TOLD not in page(player, notices_url)


def test_the_round_email_goes_once_to_players_who_want_turn_emails(alice, mailoutbox):
    _event, field, _round = started_round(alice)
    wanting, not_wanting = field[0], field[1]
    wanting.email, wanting.email_on_turn = "p1@example.org", True
    wanting.save()
    not_wanting.email, not_wanting.email_on_turn = "p2@example.org", False
    not_wanting.save()
    mine = Notice.objects.get(kind=Kind.ROUND, user=wanting)
    theirs = Notice.objects.get(kind=Kind.ROUND, user=not_wanting)
    assert send_round_started(mine.pk) == "sent"
    assert send_round_started(mine.pk) == "already sent"  # a retried task
    assert send_round_started(theirs.pk) == "not wanted"
    (message,) = mailoutbox
    assert message.to == ["p1@example.org"]
    assert message.subject == "Club evening: round 1 started"
    assert TOLD in message.body
    assert reverse("games:game", args=[mine.game_id]) in message.body
