"""Acceptance 3 of issue 12: adjudication and overrides are shown before they count and
leave an audit row; a withdrawn player's running seat goes to a bot or is forfeited, as the
organiser chooses.  All through the admin's actions and their confirmation pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.clocks import seat_clocks
from games.engine import get_game
from games.models import Game, Seat
from tests.conftest import make_user
from tests.tournaments.helpers import players, tournament
from tests.tournaments.test_ratings import play_to_the_end
from tournaments import services
from tournaments.models import AuditEntry, Match, Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    user = make_user("organiser", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def running_event(organiser, count: int = 4, **fields) -> tuple[Tournament, list[Match]]:
    """A two-seat Swiss with round 1 seated and nothing played yet."""
    event = tournament(organiser, seat_count=2, format="swiss", rounds=2, **fields)
    services.open_registration(event, organiser)
    for user in players(count):
        services.register(event, user)
    round_ = services.confirm_round(services.propose_round(event, organiser), organiser)
    return event, list(Match.objects.filter(round=round_).select_related("table"))


def current_game(match: Match) -> Game:
    return Game.objects.filter(table=match.table).order_by("-number").first()


def post(client, model: str, action: str, pk: int, **extra):
    url = reverse(f"admin:tournaments_{model}_changelist")
    return client.post(url, {"action": action, "_selected_action": [pk], **extra})


def test_adjudication_is_shown_first_and_counts_only_after_confirmation(client, organiser):
    event, matches = running_event(organiser, pace="slow", move_seconds=86400, round_days=7)
    assert matches[0].round.deadline is not None
    owing = {m.pk: current_game(m).to_act for m in matches}

    page = post(client, "tournament", "adjudicate", event.pk)
    assert page.status_code == 200
    assert "Forfeit: the players whose move" in page.content.decode()

    preview = post(client, "tournament", "adjudicate", event.pk, step="preview", rule="forfeit")
    assert preview.status_code == 200
    assert preview.content.decode().count('class="proposed-result"') == 2
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.PLAYING and match.places is None
        assert match.proposed_result["rule"] == "forfeit"
    event.refresh_from_db()
    assert all(row["played"] == 0 for row in event.standings)
    assert not AuditEntry.objects.filter(kind=AuditEntry.Kind.ADJUDICATION).exists()

    done = post(
        client, "tournament", "adjudicate", event.pk, step="confirm", reason="Deadline passed"
    )
    assert done.status_code == 302
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.adjudicated
        # The seat the game waits for (its clock ran out) finishes last; nothing was
        # played, so the other seat is alone in first place.
        (late,) = owing[match.pk]
        assert match.places == [2 if seat == late else 1 for seat in range(2)]
    entries = AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.ADJUDICATION)
    assert entries.count() == 2
    assert {(e.actor, e.reason) for e in entries} == {(organiser, "Deadline passed")}
    event.refresh_from_db()
    assert sorted(row["match_points"] for row in event.standings) == [0, 0, 2, 2]
    change_page = client.get(reverse("admin:tournaments_tournament_change", args=[event.pk]))
    assert "Adjudicated" in change_page.content.decode()


def test_an_override_needs_a_reason_and_a_confirmation(client, organiser):
    event, matches = running_event(organiser)
    match = matches[0]
    play_to_the_end(current_game(match), "override")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    before = (list(match.places), list(match.scores))
    new = {"place_0": "2", "score_0": "-10", "place_1": "1", "score_1": "25"}

    form = post(client, "match", "override_result", match.pk)
    assert form.status_code == 200 and "Check the new result" in form.content.decode()
    refused = post(client, "match", "override_result", match.pk, step="preview", **new)
    assert "This field is required" in refused.content.decode()  # no reason, no change

    check = post(
        client, "match", "override_result", match.pk, step="preview", reason="Misdeal", **new
    )
    assert "Confirm the new result" in check.content.decode()
    match.refresh_from_db()
    assert (match.places, match.scores) == before and not match.overridden
    assert not AuditEntry.objects.filter(kind=AuditEntry.Kind.OVERRIDE).exists()

    done = post(
        client, "match", "override_result", match.pk, step="confirm", reason="Misdeal", **new
    )
    assert done.status_code == 302
    match.refresh_from_db()
    assert (match.places, match.scores, match.overridden) == ([2, 1], [-10.0, 25.0], True)
    (entry,) = AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.OVERRIDE)
    assert (entry.actor, entry.reason) == (organiser, "Misdeal")
    event.refresh_from_db()
    points = {row["player"]: row["match_points"] for row in event.standings}
    assert (points[match.players[0]], points[match.players[1]]) == (0, 2)


def test_a_withdrawn_players_seat_goes_to_a_bot_when_the_organiser_says_so(client, organiser):
    event, matches = running_event(organiser)
    match = matches[0]
    leaving = match.players[1]
    registration = Registration.objects.get(tournament=event, user_id=leaving)

    page = post(client, "registration", "withdraw", registration.pk)
    assert page.status_code == 200
    assert Registration.objects.get(pk=registration.pk).status == Registration.Status.ACTIVE
    done = post(
        client,
        "registration",
        "withdraw",
        registration.pk,
        step="confirm",
        running="bot",
        reason="Had to leave",
    )
    assert done.status_code == 302

    seat = Seat.objects.get(table=match.table, position=1)
    level = seat_clocks.autoplay_level(get_game(match.table.game_type))
    assert (seat.user_id, seat.bot) == (None, level)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    (entry,) = AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.WITHDRAWAL)
    assert "a bot plays the seat" in entry.what and entry.reason == "Had to leave"

    play_to_the_end(current_game(match), "bot seat")  # the bot's seat plays on to the end
    play_to_the_end(current_game(matches[1]), "other table")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.adjudicated
    # The result stands for the player who withdrew; the next round leaves them out.
    round_2 = services.propose_round(event, organiser)
    assert leaving not in [p for m in round_2.matches.all() for p in m.players]
    assert leaving not in round_2.byes


def test_a_withdrawn_players_match_is_forfeited_when_the_organiser_says_so(client, organiser):
    event, matches = running_event(organiser)
    match = matches[0]
    leaving = match.players[0]
    registration = Registration.objects.get(tournament=event, user_id=leaving)
    done = post(
        client, "registration", "withdraw", registration.pk, step="confirm", running="forfeit"
    )
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.adjudicated
    assert match.places == [2, 1]
    assert Seat.objects.get(table=match.table, position=0).user_id == leaving
    (entry,) = AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.WITHDRAWAL)
    assert "forfeit" in entry.what and entry.actor == organiser
    event.refresh_from_db()
    rows = {row["player"]: row for row in event.standings}
    assert rows[leaving]["withdrawn"] and rows[leaving]["match_points"] == 0
    assert rows[match.players[1]]["match_points"] == 2


def test_replacing_a_player_by_a_bot_is_chosen_on_a_page_and_audited(client, organiser):
    event, matches = running_event(organiser)
    match = matches[1]
    replaced = match.players[0]

    page = post(client, "match", "replace_by_bot", match.pk)
    assert page.status_code == 200 and "Hand the seat to a bot" in page.content.decode()
    assert Seat.objects.get(table=match.table, position=0).user_id == replaced

    done = post(
        client,
        "match",
        "replace_by_bot",
        match.pk,
        step="confirm",
        player=str(replaced),
        reason="Connection lost",
    )
    assert done.status_code == 302
    seat = Seat.objects.get(table=match.table, position=0)
    assert seat.user_id is None and seat.bot
    game = current_game(match)
    assert game.waiting_for_bot == (0 in game.to_act)
    (entry,) = AuditEntry.objects.filter(tournament=event, kind=AuditEntry.Kind.REPLACEMENT)
    assert (entry.actor, entry.reason) == (organiser, "Connection lost")
    # The player stays in the tournament: only the seat changed hands.
    assert Registration.objects.get(tournament=event, user_id=replaced).status == "active"
