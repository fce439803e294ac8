""" "Play again with the same settings" under a finished match: a new table with the same
settings and players in the same seats, one for everyone who asks, and refusals that say why
and change nothing."""

from __future__ import annotations

import pytest

from games.models import Game, Table
from games.presenters import game_context
from games.tables import lifecycle
from tests.games.playing import play_out

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def finished_match(alice, bob) -> Table:
    """A one-game match of Remi (alice, bob and a hard bot), played to its end."""
    table = lifecycle.create_table(
        alice,
        game_type="remi",
        seat_count=3,
        bots=["hard"],
        options={"doubla": False, "series_games": 1},
        pace=Table.Pace.SLOW,
        move_seconds=2 * 86400,
        is_public=False,
    )
    lifecycle.join_table(table, bob)
    play_out(lifecycle.start_table(table, alice))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def last_game(table: Table) -> Game:
    return table.games.order_by("-number").first()


def test_play_again_seats_the_same_players_at_one_new_table_with_the_same_settings(
    client, alice, bob, finished_match
):
    game = last_game(finished_match)
    seats = list(finished_match.seats.select_related("user"))
    assert game_context(game, seats, 0)["series"]["rematch_url"] is None
    client.force_login(bob)
    response = client.post(f"/tables/{finished_match.pk}/rematch/", **HTMX)
    new = Table.objects.get(rematch_of=finished_match)
    assert response.status_code == 200 and response["HX-Redirect"] == f"/tables/{new.pk}/"
    assert new.status == Table.Status.OPEN and new.owner == bob
    for field in lifecycle.REMATCH_FIELDS:
        assert getattr(new, field) == getattr(finished_match, field), field
    seated = [(s.position, s.user_id, s.bot) for s in new.seats.order_by("position")]
    assert seated == [
        (s.position, s.user_id, s.bot) for s in sorted(seats, key=lambda s: s.position)
    ]
    assert [bot for _, _, bot in seated] == ["", "hard", ""]  # alice, the bot, bob who joined

    # Everyone who asks lands at the same table, and the result links to it from then on.
    assert lifecycle.rematch(finished_match, alice).pk == new.pk
    assert Table.objects.filter(rematch_of=finished_match).count() == 1
    assert game_context(game, seats, 0)["series"]["rematch_url"] == f"/tables/{new.pk}/"
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/tables/{new.pk}/"' in html and 'id="play-again"' not in html


def test_only_the_players_are_offered_it_and_may_ask(client, alice, carol, finished_match):
    url = f"/games/{last_game(finished_match).pk}/"
    rematch_url = f"/tables/{finished_match.pk}/rematch/"
    # A private table stays hidden from strangers.
    client.force_login(carol)
    assert client.post(rematch_url).status_code == 404
    finished_match.is_public = True
    finished_match.save()
    client.force_login(alice)
    assert 'id="play-again"' in client.get(url).content.decode()
    client.force_login(carol)
    assert 'id="play-again"' not in client.get(url).content.decode()
    response = client.post(rematch_url, follow=True)
    assert "Only the players of this table can ask to play again." in response.content.decode()
    assert not Table.objects.filter(rematch_of=finished_match).exists()


def test_play_again_counts_against_the_limit_of_open_tables(settings, alice, finished_match):
    settings.MAX_OPEN_TABLES_PER_USER = 1
    lifecycle.create_table(alice, game_type="remi", seat_count=2)
    with pytest.raises(lifecycle.TableError, match="not finished"):
        lifecycle.rematch(finished_match, alice)
    assert not Table.objects.filter(rematch_of=finished_match).exists()


def test_a_match_still_being_played_cannot_be_replayed(alice, bob):
    table = lifecycle.create_table(alice, game_type="remi", seat_count=2)
    lifecycle.join_table(table, bob)
    lifecycle.start_table(table, alice)
    with pytest.raises(lifecycle.TableError, match="not over yet"):
        lifecycle.rematch(table, alice)
    assert not Table.objects.filter(rematch_of=table).exists()
