"""Acceptance 1 of issue 12: a Swiss tournament of 9 players at tables of 3, run from the
admin, with players registering on the site and every game played through services.play.

Runs on whatever database the suite uses (SQLite, and PostgreSQL in CI's second run)."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import pytest
from django.urls import reverse

from games.models import Table
from tests.conftest import make_user
from tests.tournaments.helpers import play_round, players
from tournaments.models import AuditEntry, Match, Round, Tournament

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:tournaments_tournament_changelist"


@pytest.fixture
def organiser(client):
    user = make_user("organiser", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def create_in_admin(client, **fields) -> Tournament:
    data = {
        "name": "Autumn Swiss",
        "description": "Three rounds, tables of three.",
        "game_type": "rummikub",
        "preset": "",
        "options": "{}",
        "games_per_match": "1",
        "target_score": "",
        "pace": "live",
        "move_seconds": "0",
        "vacation_allowed": "on",
        "round_days": "",
        "seat_count": "3",
        "format": "swiss",
        "rounds": "3",
        "advance": "1",
        "min_players": "6",
        "max_players": "12",
        **fields,
    }
    for prefix in ("registrations", "round_set", "matches", "audit"):
        data[f"{prefix}-TOTAL_FORMS"] = "0"
        data[f"{prefix}-INITIAL_FORMS"] = "0"
    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Tournament.objects.get(name=data["name"])


def admin_action(client, action: str, tournament: Tournament, **extra):
    data = {"action": action, "_selected_action": [tournament.pk], **extra}
    return client.post(reverse(CHANGELIST), data)


def start_round_from_the_admin(client, tournament: Tournament, number: int) -> Round:
    page = admin_action(client, "start_next_round", tournament)
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Confirm the pairing of round {number}" in text
    # The pairing is shown, nothing is seated yet.
    round_ = Round.objects.get(tournament=tournament, number=number)
    assert round_.status == Round.Status.PROPOSED
    assert not Match.objects.filter(round=round_, table__isnull=False).exists()
    assert text.count("<tr><td>") == 3
    done = admin_action(client, "start_next_round", tournament, step="confirm")
    assert done.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
    return round_


def expected_standings(matches: list[Match], field: list[int]) -> dict[int, tuple]:
    """The tiebreak columns computed here, from the tables' own series totals: 4/2/0 match
    points by place at three seats (shared places share), total score, sole wins,
    head-to-head among players level on the first three, opponents' match points."""
    points, score, wins = defaultdict(float), defaultdict(float), defaultdict(int)
    results = []
    for match in matches:
        totals = [sum(g[i] for g in match.table.series["games"]) for i in range(3)]
        places = [1 + sum(o > t for o in totals) for t in totals]
        results.append((match.players, places))
        for seat, player in enumerate(match.players):
            level = [i for i in range(3) if places[i] == places[seat]]
            better = sum(p < places[seat] for p in places)
            share = [4, 2, 0][better : better + len(level)]
            points[player] += sum(share) / len(level)
            score[player] += totals[seat]
            wins[player] += places[seat] == 1 and places.count(1) == 1
    first = {p: (points[p], score[p], wins[p]) for p in field}
    head = defaultdict(float)
    for table, places in results:
        for (a, pa), (b, pb) in combinations(zip(table, places, strict=True), 2):
            if first[a] != first[b]:
                continue
            if pa == pb:
                head[a] += 1
                head[b] += 1
            else:
                head[a if pa < pb else b] += 2
    opponents = defaultdict(float)
    for table, _places in results:
        for a in table:
            opponents[a] += sum(points[b] for b in table if b != a)
    return {p: (points[p], score[p], wins[p], head[p], opponents[p]) for p in field}


def test_a_swiss_of_nine_at_tables_of_three_run_from_the_admin(client, organiser):
    tournament = create_in_admin(client)
    assert tournament.organiser == organiser
    assert tournament.status == Tournament.Status.DRAFT

    assert admin_action(client, "open_registration", tournament).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION

    field = players(9)
    for user in field:
        client.force_login(user)
        response = client.post(reverse("tournaments:register", args=[tournament.pk]))
        assert response.status_code == 302
    page = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert "9 players" in page
    client.force_login(organiser)

    ids = sorted(u.pk for u in field)
    for number in (1, 2, 3):
        round_ = start_round_from_the_admin(client, tournament, number)
        matches = list(Match.objects.filter(round=round_).select_related("table"))
        assert len(matches) == 3 and not round_.byes
        assert sorted(p for m in matches for p in m.players) == ids
        for match in matches:
            # Every table is seated in the match's order and is in its players' My games.
            assert match.table.status == Table.Status.PLAYING
            assert [s.user_id for s in match.table.seats.all()] == match.players
        play_round(round_, f"swiss-{number}")
        round_.refresh_from_db()
        assert round_.status == Round.Status.FINISHED

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    matches = list(Match.objects.filter(tournament=tournament).select_related("table", "round"))
    assert len(matches) == 9 and all(m.status == Match.Status.FINISHED for m in matches)
    # Nine players, three rounds of three-player tables: everyone can meet six different
    # players, so no pair may meet twice.
    pairs = [frozenset(pair) for m in matches for pair in combinations(m.players, 2)]
    assert len(pairs) == len(set(pairs)) == 27

    expected = expected_standings(matches, ids)
    rows = tournament.standings
    assert len(rows) == 9
    for row in rows:
        got = (
            row["match_points"],
            row["game_score"],
            row["wins"],
            row["head_to_head"],
            row["opponents_score"],
        )
        assert got == pytest.approx(expected[row["player"]]), row
        assert (row["played"], row["byes"]) == (3, 0)
    keys = [expected[row["player"]] for row in rows]
    assert keys == sorted(keys, reverse=True)
    for row, key in zip(rows, keys, strict=True):
        assert row["rank"] == 1 + sum(other > key for other in keys)

    pairings = AuditEntry.objects.filter(tournament=tournament, kind=AuditEntry.Kind.PAIRING)
    assert pairings.count() == 3 and all(e.actor == organiser for e in pairings)
    change_page = client.get(
        reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    ).content.decode()
    assert "Started round 3" in change_page
