"""A tournament's life through its services: registration, rounds, results, the end."""

from __future__ import annotations

import pytest

from games.engine import GAMES
from games.models import Table
from tests.tournaments.helpers import play_round, players, tournament
from tournaments import services
from tournaments.models import AuditEntry, Match, Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game_type", list(GAMES))
def test_every_game_of_the_registry_plays_a_tournament_match(alice, bob, carol, game_type):
    event = tournament(alice, game_type=game_type, seat_count=2, format="knockout")
    services.open_registration(event, alice)
    services.register(event, bob)
    services.register(event, carol)
    services.confirm_round(services.propose_round(event, alice), alice)
    (match,) = Match.objects.filter(tournament=event)
    assert match.table.game_type == game_type
    play_round(match.round, game_type)
    match.refresh_from_db()
    event.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert sorted(match.places) in ([1, 2], [1, 1])
    assert match.scores == [float(sum(g)) for g in zip(*match.table.series["games"], strict=True)]
    assert event.status == Tournament.Status.FINISHED
    assert [row["played"] for row in event.standings] == [1, 1]


def test_a_round_robin_of_three_at_two_seats_plays_to_the_end(alice):
    event = tournament(alice, seat_count=2, format=Tournament.Format.ROUND_ROBIN)
    services.open_registration(event, alice)
    field = players(3)
    for user in field:
        services.register(event, user)
    for number in (1, 2, 3):
        round_ = services.propose_round(event, alice)
        assert round_.status == Round.Status.PROPOSED
        assert not Table.objects.filter(tournament_match__round=round_).exists()
        services.confirm_round(round_, alice)
        (match,) = Match.objects.filter(round=round_)
        assert match.status == Match.Status.PLAYING
        assert match.table.status == Table.Status.PLAYING
        assert [s.user_id for s in match.table.seats.order_by("position")] == match.players
        assert len(round_.byes) == 1
        play_round(round_, f"rr{number}")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert sorted(row["played"] for row in event.standings) == [2, 2, 2]
    assert sorted(row["byes"] for row in event.standings) == [1, 1, 1]
    assert AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.PAIRING).count() == 3


def test_registration_only_while_open_and_within_the_limit(alice, bob, carol):
    event = tournament(alice, max_players=1)
    with pytest.raises(services.TournamentError, match="not open"):
        services.register(event, bob)
    services.open_registration(event, alice)
    services.register(event, bob)
    with pytest.raises(services.TournamentError, match="full"):
        services.register(event, carol)
    services.withdraw_self(event, bob)
    services.register(event, carol)
    assert dict(Registration.objects.values_list("user__username", "status")) == {
        "bob": "withdrawn",
        "carol": "active",
    }


def test_a_finished_tournament_table_offers_its_players_no_rematch(client, alice, bob, carol):
    """Issue 30, fault 9: a tournament's finished table offered "Play again with the same
    settings", a casual table outside the tournament."""
    from games.tables import lifecycle

    event = tournament(alice, game_type="remi", seat_count=2, format="knockout")
    services.open_registration(event, alice)
    services.register(event, bob)
    services.register(event, carol)
    services.confirm_round(services.propose_round(event, alice), alice)
    (match,) = Match.objects.filter(tournament=event)
    play_round(match.round, "no-rematch")
    table = Table.objects.get(pk=match.table_id)
    assert table.arranged and table.status == Table.Status.FINISHED
    last = table.games.order_by("-number").first()
    client.force_login(bob)
    page = client.get(f"/games/{last.pk}/").content.decode()
    assert "The match is over." in page
    assert "Play again with the same settings" not in page
    with pytest.raises(lifecycle.TableError, match="organiser seated this table"):
        lifecycle.rematch(table, bob)
    assert not Table.objects.filter(rematch_of=table).exists()
