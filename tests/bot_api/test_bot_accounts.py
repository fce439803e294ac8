"""Bot accounts and their tokens: made by the owner on the profile's bot page (or flagged by
staff), the token shown once and stored as a hash, revoked at will; a bot account is marked
wherever its name is shown; tables and tournaments decide whether bots may sit."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from bot_api import play
from bot_api.models import BotPolicy, BotToken, TournamentBotPolicy
from games.tables import lifecycle
from tests.bot_api.helpers import bearer, bot_account, game_with_bot, open_table
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

PAGE = "/profile/bot/"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_owner_makes_a_bot_account_and_a_token_shown_once(alice) -> None:
    robo = make_user("robo")
    page = logged_in(robo)
    assert "Make this a bot account" in page.get(PAGE).text
    page.post(PAGE, {"action": "flag"})
    robo.refresh_from_db()
    assert robo.is_bot

    made = page.post(PAGE, {"action": "token", "name": "laptop"})
    key = re.search(r'<code id="new-token">([^<]+)</code>', made.text).group(1)
    assert made["Cache-Control"] == "no-store"
    token = BotToken.objects.get(user=robo)
    # Only the hash is kept, and the key is never shown again.
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in str(list(BotToken.objects.values()))
    assert key not in page.get(PAGE).text
    assert token.prefix in page.get(PAGE).text

    api = Client()
    assert api.get("/api/bot/account", **bearer(key)).json()["username"] == "robo"
    page.post(reverse("bot_api:revoke", args=[token.pk]))
    refused = api.get("/api/bot/account", **bearer(key))
    assert refused.status_code == 401
    assert refused.json()["error"] == "bad-token"


def test_someone_elses_token_cannot_be_revoked(alice) -> None:
    robo, key = bot_account()
    token = BotToken.objects.get(user=robo)
    assert logged_in(alice).post(reverse("bot_api:revoke", args=[token.pk])).status_code == 404
    assert Client().get("/api/bot/account", **bearer(key)).status_code == 200


def test_an_account_that_has_played_cannot_become_a_bot(alice, bob) -> None:
    open_table(alice)
    page = logged_in(alice)
    assert "never sat at a table" in page.get(PAGE).text
    page.post(PAGE, {"action": "flag"})
    alice.refresh_from_db()
    assert not alice.is_bot


def test_a_token_of_an_account_no_longer_a_bot_plays_nothing() -> None:
    robo, key = bot_account()
    robo.is_bot = False  # staff unflagged it in the admin
    robo.save()
    assert Client().get("/api/bot/account", **bearer(key)).status_code == 401


def test_no_token_and_a_made_up_token_are_refused() -> None:
    assert Client().get("/api/bot/account").json()["error"] == "no-token"
    made_up = Client().get("/api/bot/account", **bearer("remi_not-a-token"))
    assert made_up.status_code == 401


def test_a_bot_account_is_marked_where_its_name_shows(alice) -> None:
    robo, _key = bot_account()
    game = game_with_bot(alice, robo)
    seats = {s.position: s for s in game.table.seats.select_related("user")}
    assert seats[1].display_name == "robo [bot]"
    assert seats[0].display_name == "Alice"
    # The names the game was dealt with, which its log and replay show.
    from games.engine import get_game

    view = get_game("remi").player_view(get_game("remi").load(game.state), 0)
    assert view["names"] == ["Alice", "robo [bot]"]
    page = logged_in(alice).get(game.get_absolute_url())
    assert "robo [bot]" in page.text
    assert "robo [bot]" in Client().get(reverse("games:lobby")).text


def test_a_rated_table_refuses_bots_unless_it_allows_them(alice) -> None:
    robo, key = bot_account()
    table = open_table(alice, rated=True)
    api = Client()
    refused = api.post(f"/api/bot/table/{table.pk}/join", **bearer(key))
    assert refused.status_code == 403
    assert refused.json()["error"] == "rated"
    assert table.seats.count() == 1
    # Nor through the site's own Join button, should the bot account log in.
    with pytest.raises(lifecycle.TableError, match="for people"):
        lifecycle.join_table(table, robo)
    BotPolicy.objects.create(table=table, rated_with_bots=True)
    joined = api.post(f"/api/bot/table/{table.pk}/join", **bearer(key))
    assert joined.json() == {"ok": True, "table": table.pk, "seat": 1}


def test_tournaments_admit_bot_accounts_only_when_they_say_so(alice) -> None:
    from tests.tournaments.helpers import tournament as make_tournament
    from tournaments import services as tournament_services
    from tournaments.models import Tournament

    robo, _key = bot_account()
    tournament = make_tournament(alice, status=Tournament.Status.REGISTRATION)
    with pytest.raises(tournament_services.TournamentError, match="bot account"):
        tournament_services.register(tournament, robo)
    tournament_services.register(tournament, alice)  # people as before
    TournamentBotPolicy.objects.create(tournament=tournament, admit_bot_accounts=True)
    tournament_services.register(tournament, robo)
    assert tournament.registrations.filter(user=robo).exists()


def test_invitations_are_accepted_or_declined_once(alice, bob) -> None:
    robo, key = bot_account()
    table = open_table(alice)
    page = logged_in(alice)
    # The owner's table page has the form; no one else's.
    assert 'id="invite-bot-username"' in page.get(table.get_absolute_url()).text
    assert 'id="invite-bot-username"' not in logged_in(bob).get(table.get_absolute_url()).text
    page.post(reverse("bot_api:invite", args=[table.pk]), {"username": "robo"})
    invitation = robo.bot_invitations.get()
    assert play.events_for(robo)[0]["type"] == "invitation"
    # Someone else's table, a person who is no bot: refused, nothing made.
    logged_in(bob).post(reverse("bot_api:invite", args=[table.pk]), {"username": "robo"})
    page.post(reverse("bot_api:invite", args=[table.pk]), {"username": "bob"})
    assert table.bot_invites.count() == 1

    api = Client()
    accepted = api.post(f"/api/bot/invitation/{invitation.pk}/accept", **bearer(key))
    assert accepted.json() == {"ok": True, "table": table.pk, "seat": 1}
    again = api.post(f"/api/bot/invitation/{invitation.pk}/decline", **bearer(key))
    assert again.status_code == 409
    assert lifecycle.seat_names(table) == ["Alice", "robo [bot]"]


def test_the_rate_limit_counts_per_token(settings, monkeypatch) -> None:
    from bot_api import tokens

    monkeypatch.setattr(tokens, "RATE_LIMIT", 3)
    _robo, key = bot_account()
    _other, other_key = bot_account("other")
    api = Client()
    answers = [api.get("/api/bot/account", **bearer(key)).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert int(api.get("/api/bot/account", **bearer(key))["Retry-After"]) > 0
    assert api.get("/api/bot/account", **bearer(other_key)).status_code == 200


def test_a_declined_invitation_seats_nobody(alice) -> None:
    robo, key = bot_account()
    table = open_table(alice)
    invitation = play.invite(table, alice, robo)
    declined = Client().post(f"/api/bot/invitation/{invitation.pk}/decline", **bearer(key))
    assert declined.json() == {"ok": True, "table": table.pk}
    invitation.refresh_from_db()
    assert invitation.status == "declined"
    assert table.seats.count() == 1
    assert play.events_for(robo) == []


def test_the_bot_page_speaks_the_players_language() -> None:
    robo, _key = bot_account()
    robo.preferred_language = "ro"
    robo.save()
    page = logged_in(robo).get(PAGE).text
    assert "Tokenuri API" in page and "API tokens" not in page
