"""The lobby side over HTTP: creating tables, sitting down, starting, invitations, my games."""

from __future__ import annotations

import re
from typing import Any

import pytest
import time_machine
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Game, Seat, Table
from games.play import services
from games.tables import lifecycle
from games.tables.lobby_presenters import LOBBY_PAGE_SIZE
from tests.conftest import make_user
from tests.games.test_deal_verification import play_out, start

# The lobby writes a range of tables with an en dash between the numbers.
DASH = "\N{EN DASH}"

pytestmark = pytest.mark.django_db


def form_data(**changes: Any) -> dict[str, Any]:
    """What the new-table form posts with its defaults, changed by ``changes``."""
    data: dict[str, Any] = {
        "game_type": "remi",
        "preset": "remi",
        "first_meld_minimum": "50",
        "doubla": "on",
        "many_doublas": "on",
        "first_meld_turn_swap": "on",
        "rack_one_value": "25",
        "unmelded_penalty": "flat",
        "no_winner_unmelded": "rack",
        "max_rebuilds": "",
        "max_idle_rebuilds": "",
        "series_games": "1",
        "target_score": "",
        "seat_count": "4",
        "bots": "0",
        "bot_level": "normal",
        "pace": "live",
        "move_seconds": "120",
        "visibility": "public",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def message_texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def two_seat_table(owner, *others, **kwargs: Any) -> Table:
    table = lifecycle.create_table(owner, seat_count=2, **kwargs)
    for user in others:
        lifecycle.join_table(table, user)
    return table


def whose_turn(game: Game) -> int:
    (seat,) = Game.objects.get(pk=game.pk).to_act
    return seat


def discard_for(game: Game) -> None:
    """The player to move opens with a discard, passing the turn (a two-seat game)."""
    game = Game.objects.get(pk=game.pk)
    (seat,) = game.to_act
    tile = game.state["racks"][seat].split()[0]
    services.play(game.pk, seat, f"discard {tile}", game.version)


# --- Creating a table -------------------------------------------------------------------------


def test_creating_a_table_stores_the_chosen_options_in_its_rules(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("games:table_create"),
        form_data(
            first_meld_minimum="45",
            first_meld_takes_discard="on",
            doubla=None,
            many_doublas=None,
            first_meld_turn_swap=None,
            rack_one_value="5",
            unmelded_penalty="rack",
            no_winner_unmelded="penalty",
            joly_discard_doubles="on",
            max_rebuilds="3",
            max_idle_rebuilds="20",
            series_games="5",
            target_score="500",
            seat_count="3",
            bots="1",
            bot_level="hard",
            pace="slow",
            move_seconds="86400",
            visibility="private",
        ),
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    rules = table.rules
    assert rules["first_meld_minimum"] == 45
    assert rules["first_meld_takes_discard"] is True
    assert rules["doubla"] is False
    assert rules["rack_one_value"] == 5
    assert rules["unmelded_penalty"] == "rack"
    assert rules["joly_discard_doubles"] is True
    assert rules["max_rebuilds"] == 3
    assert rules["many_doublas"] is False
    assert rules["first_meld_turn_swap"] is False
    assert rules["no_winner_unmelded"] == "penalty"
    assert rules["max_idle_rebuilds"] == 20
    assert (rules["series_games"], rules["target_score"]) == (5, 500)
    assert (table.seat_count, table.pace, table.move_seconds) == (3, "slow", 86400)
    assert table.is_public is False
    seats = list(table.seats.values_list("position", "user__username", "bot"))
    assert seats == [(0, "alice", ""), (1, None, "hard")]


def test_empty_rebuilds_and_games_mean_no_limit_and_play_to_the_target(client, alice):
    client.force_login(alice)
    client.post(
        reverse("games:table_create"),
        form_data(max_rebuilds="", series_games="", target_score="1000"),
    )
    rules = Table.objects.get().rules
    assert rules["max_rebuilds"] is None
    assert rules["max_idle_rebuilds"] is None
    # The readings of Romanian printed rules are the defaults the form posts.
    assert rules["many_doublas"] is True and rules["first_meld_turn_swap"] is True
    assert rules["no_winner_unmelded"] == "rack"
    assert (rules["series_games"], rules["target_score"]) == (None, 1000)


def test_a_preset_is_kept_and_the_options_override_it(client, alice):
    client.force_login(alice)
    client.post(
        reverse("games:table_create"),
        form_data(preset="remi-printed", unmelded_penalty="flat"),
    )
    table = Table.objects.get()
    assert table.preset == "remi-printed"
    assert table.rules["unmelded_penalty"] == "flat"
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "Never melded: lose 100 + rack" in lobby  # the preset's name...
    assert "never melded: loses 200" in lobby  # ... and where this table differs from it


def test_choosing_a_preset_prefills_its_options_for_htmx(client, alice):
    client.force_login(alice)
    response = client.get(
        reverse("games:table_create"),
        {"preset": "remi-45"},
        headers={"HX-Request": "true", "HX-Target": "rule-options"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<fieldset id="rule-options"')
    assert "<html" not in html
    assert re.search(r'value="45"[^>]*checked', html)
    assert not re.search(r'value="50"[^>]*checked', html)


def test_choosing_a_preset_without_javascript_keeps_the_other_choices(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("games:table_create"),
        form_data(
            action="apply-preset",
            preset="remi-open-discard",
            first_meld_minimum="45",
            seat_count="2",
        ),
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert not Table.objects.exists()
    assert re.search(r'name="first_meld_takes_discard"[^>]*checked', html)
    assert re.search(r'value="50"[^>]*checked', html)  # the preset's value, not the typed one
    assert re.search(r'<option value="2" selected>', html)


def test_switching_to_a_slow_pace_offers_a_slow_time_per_move(client, alice):
    client.force_login(alice)
    response = client.get(
        reverse("games:table_create"),
        {"pace": "slow"},
        headers={"HX-Request": "true", "HX-Target": "move-time"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="move-time">')
    assert '<option value="86400" selected>' in html


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"seat_count": "2", "bots": "2"}, "bots", "Leave at least one seat for a person"),
        ({"target_score": "0"}, "target_score", "must be a positive number"),
        ({"target_score": "-50"}, "target_score", "must be a positive number"),
        ({"series_games": "", "target_score": ""}, "series_games", "never ends"),
        ({"pace": "slow", "move_seconds": "120"}, "move_seconds", "A slow game needs"),
        ({"pace": "live", "move_seconds": "86400"}, "move_seconds", "A live game has"),
        ({"max_rebuilds": "-1"}, "max_rebuilds", "cannot be negative"),
        ({"max_idle_rebuilds": "0"}, "max_idle_rebuilds", "at least 1 rebuild"),
    ],
)
def test_the_form_explains_what_is_wrong_and_creates_nothing(
    client, alice, changes, field, message
):
    client.force_login(alice)
    response = client.post(reverse("games:table_create"), form_data(**changes))
    html = response.content.decode()
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert message in html
    # The error is tied to its field for screen readers.
    assert f'id="id_{field}_error"' in html
    assert re.search(rf'aria-describedby="[^"]*id_{field}_error', html)


@pytest.mark.parametrize(
    "changes",
    [
        {"seat_count": "9"},
        {"preset": "house-rules-from-nowhere"},
        {"game_type": "poker"},
        {"bot_level": "grandmaster", "bots": "1"},
        {"move_seconds": "soon"},
        {"first_meld_minimum": "1"},
        {"rack_one_value": "1000"},
        {"unmelded_penalty": "nothing"},
        {"no_winner_unmelded": "flat"},
        {"visibility": "secret"},
        {"series_games": "lots"},
    ],
)
def test_forged_form_values_are_refused(client, alice, changes):
    client.force_login(alice)
    response = client.post(reverse("games:table_create"), form_data(**changes))
    assert response.status_code == 400
    assert not Table.objects.exists()


def test_creating_a_table_needs_a_login(client):
    response = client.post(reverse("games:table_create"), form_data())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Table.objects.exists()


# --- Limits on creating tables ----------------------------------------------------------------


def test_a_player_cannot_own_more_unfinished_tables_than_the_limit(client, settings, alice, bob):
    settings.MAX_OPEN_TABLES_PER_USER = 2
    waiting = lifecycle.create_table(alice, seat_count=2)
    lifecycle.start_table(two_seat_table(alice, bob), alice)  # playing counts too
    client.force_login(alice)
    response = client.post(reverse("games:table_create"), form_data())
    assert response.status_code == 400
    html = response.content.decode()
    assert "You already have 2 tables that are not finished" in html
    assert "Close a table nobody has joined, or finish a game, then try again." in html
    assert Table.objects.count() == 2
    # Closing the waiting table makes room again.
    lifecycle.leave_table(waiting, alice)
    assert client.post(reverse("games:table_create"), form_data()).status_code == 302
    assert Table.objects.filter(owner=alice).count() == 2


def test_finished_tables_do_not_count_towards_the_limit(client, settings, alice, bob):
    settings.MAX_OPEN_TABLES_PER_USER = 1
    played = two_seat_table(alice, bob)
    lifecycle.start_table(played, alice)
    Table.objects.filter(pk=played.pk).update(status=Table.Status.FINISHED)
    client.force_login(alice)
    assert client.post(reverse("games:table_create"), form_data()).status_code == 302


def test_the_limit_is_per_owner(client, settings, alice, bob):
    settings.MAX_OPEN_TABLES_PER_USER = 1
    lifecycle.create_table(alice, seat_count=2)
    client.force_login(bob)
    assert client.post(reverse("games:table_create"), form_data()).status_code == 302


def test_creating_tables_quickly_is_refused_until_the_minute_is_over(client, settings, alice, bob):
    settings.TABLE_CREATIONS_PER_MINUTE = 2
    with time_machine.travel("2026-03-01 12:00:10 +0000", tick=False) as clock:
        client.force_login(alice)
        for _ in range(2):
            assert client.post(reverse("games:table_create"), form_data()).status_code == 302
        response = client.post(reverse("games:table_create"), form_data())
        assert response.status_code == 429
        html = response.content.decode()
        assert "You have just created 2 tables, the most allowed in a minute." in html
        assert "Try again in 50 seconds." in html
        assert Table.objects.count() == 2
        # Someone else is not held up by alice.
        client.force_login(bob)
        assert client.post(reverse("games:table_create"), form_data()).status_code == 302
        clock.shift(50)
        client.force_login(alice)
        assert client.post(reverse("games:table_create"), form_data()).status_code == 302
    assert Table.objects.filter(owner=alice).count() == 3


def test_a_refused_form_does_not_use_up_the_creation_limit(client, settings, alice):
    settings.TABLE_CREATIONS_PER_MINUTE = 1
    client.force_login(alice)
    for _ in range(3):
        bad = client.post(reverse("games:table_create"), form_data(seat_count="9"))
        assert bad.status_code == 400
    assert client.post(reverse("games:table_create"), form_data()).status_code == 302


def test_one_player_cannot_flood_the_lobby(client, alice, bob):
    # The probe: one player posting the form as fast as possible.
    lifecycle.create_table(bob, seat_count=2)
    client.force_login(alice)
    with time_machine.travel("2026-03-01 12:00:00 +0000", tick=False):
        statuses = [
            client.post(reverse("games:table_create"), form_data()).status_code for _ in range(20)
        ]
    assert statuses.count(302) == 3  # the default: 3 a minute (and 5 unfinished at most)
    assert set(statuses[3:]) == {429}
    assert 'data-table-id="' in client.get(reverse("games:lobby")).content.decode()
    assert Table.objects.filter(owner=alice).count() == 3


# --- The lobby --------------------------------------------------------------------------------


def test_the_lobby_lists_open_public_tables_with_seats_rules_and_pace(client, alice, bob):
    table = lifecycle.create_table(
        alice,
        seat_count=3,
        bots=["easy"],
        preset="remi-45",
        pace=Table.Pace.SLOW,
        move_seconds=86400,
    )
    client.force_login(bob)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'data-table-id="{table.pk}"' in html
    assert "Alice" in html
    assert "Bot (easy) 2" in html
    assert "Free seat" in html
    assert "1 seat free" in html
    assert "First meld 45" in html
    assert "Slow (play by mail) · 24 hours a move" in html
    assert f'id="join-{table.pk}"' in html
    assert 'ws-connect="/ws/lobby/"' in html


def test_visitors_see_the_lobby_and_are_asked_to_log_in_to_join(client, alice):
    table = lifecycle.create_table(alice, seat_count=2)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'data-table-id="{table.pk}"' in html
    assert "Log in to join" in html
    assert "Create table" not in html


def test_started_and_private_tables_are_not_in_the_open_list(client, alice, bob, carol):
    started = two_seat_table(alice, bob)
    lifecycle.start_table(started, alice)
    private = lifecycle.create_table(alice, seat_count=2, is_public=False)
    client.force_login(carol)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'data-table-id="{started.pk}"' not in html
    assert f'data-table-id="{private.pk}"' not in html
    assert "No open tables right now." in html


def test_the_lobby_lists_the_tables_i_sit_at_private_ones_too(client, alice, bob):
    private = lifecycle.create_table(alice, seat_count=2, is_public=False)
    started = two_seat_table(alice, bob)
    game = lifecycle.start_table(started, alice)
    client.force_login(alice)
    html = client.get(reverse("games:lobby")).content.decode()
    mine = html.split('id="my-tables"')[1].split('id="open-tables"')[0]
    assert f'data-table-id="{private.pk}"' in mine
    assert f'data-table-id="{started.pk}"' in mine
    assert reverse("games:game", args=[game.pk]) in mine


def test_an_htmx_request_for_the_lobby_gets_only_the_table_list(client, alice):
    lifecycle.create_table(alice, seat_count=2)
    html = client.get(reverse("games:lobby"), headers={"HX-Request": "true"}).content.decode()
    assert html.lstrip().startswith('<div id="open-tables"')
    assert "<html" not in html


def test_the_lobby_needs_a_bounded_number_of_queries(
    client, settings, alice, bob, carol, django_assert_max_num_queries
):
    settings.MAX_OPEN_TABLES_PER_USER = 10
    client.force_login(alice)
    lifecycle.create_table(bob, seat_count=2)
    # User (the session is in the cache), open tables (count + page) + their seats and the
    # seated players' ratings, my tables + their seats and ratings, the live games + their
    # seats and ratings: the same however many tables there are.
    with django_assert_max_num_queries(11):
        assert client.get(reverse("games:lobby")).status_code == 200
    for n in range(12):
        table = lifecycle.create_table(bob if n % 2 else carol, seat_count=4, bots=["easy"])
        if n % 3 == 0:
            lifecycle.join_table(table, alice)
    playing = two_seat_table(alice, bob)
    lifecycle.start_table(playing, alice)
    with django_assert_max_num_queries(12):
        html = client.get(reverse("games:lobby")).content.decode()
    assert html.count('class="table-card"') >= 13


def many_open_tables(count: int) -> list[Table]:
    """``count`` public tables, newest first, from owners who each stay within the limit."""
    owners = [make_user(f"owner{n}") for n in range(count // 5 + 1)]
    created = [lifecycle.create_table(owners[n // 5], seat_count=2) for n in range(count)]
    return created[::-1]


def card_ids(html: str) -> list[int]:
    open_list = html.split('id="open-tables"')[1]
    return [int(pk) for pk in re.findall(r'id="table-card-(\d+)"', open_list)]


def test_the_lobby_pages_open_tables_newest_first(client, alice):
    newest_first = many_open_tables(LOBBY_PAGE_SIZE + 5)
    client.force_login(alice)
    first = client.get(reverse("games:lobby")).content.decode()
    assert card_ids(first) == [t.pk for t in newest_first[:LOBBY_PAGE_SIZE]]
    assert f"Tables 1{DASH}{LOBBY_PAGE_SIZE} of {LOBBY_PAGE_SIZE + 5}" in first
    assert 'ws-connect="/ws/lobby/"' in first
    second = client.get(reverse("games:lobby"), {"page": "2"}).content.decode()
    assert card_ids(second) == [t.pk for t in newest_first[LOBBY_PAGE_SIZE:]]
    assert 'ws-connect="/ws/lobby/?page=2"' in second


def test_page_links_are_plain_links_that_say_where_they_go(client, alice):
    many_open_tables(LOBBY_PAGE_SIZE * 2 + 1)
    html = client.get(reverse("games:lobby"), {"page": "2"}).content.decode()
    nav = html.split('<nav class="pager"')[1].split("</nav>")[0]
    lobby = reverse("games:lobby")
    # Real links (keyboard, phone, no JavaScript), the current page marked for screen readers.
    assert f'href="{lobby}?page=1" rel="prev"' in nav
    assert f'href="{lobby}?page=3" rel="next"' in nav
    assert 'aria-current="page"' in nav
    assert re.search(r'aria-current="page"[^>]*>\s*2\s*<', nav)
    assert 'aria-label="Pages of open tables"' in html


@pytest.mark.parametrize("page", ["abc", "0", "-1", "²", "99999999999999999999999"])
def test_a_bad_page_number_shows_the_first_page(client, alice, page):
    newest_first = many_open_tables(LOBBY_PAGE_SIZE + 1)
    response = client.get(reverse("games:lobby"), {"page": page})
    assert response.status_code == 200
    assert card_ids(response.content.decode()) == [t.pk for t in newest_first[:LOBBY_PAGE_SIZE]]


def test_a_page_past_the_end_shows_the_last_page(client, alice):
    newest_first = many_open_tables(LOBBY_PAGE_SIZE + 2)
    html = client.get(reverse("games:lobby"), {"page": "7"}).content.decode()
    assert card_ids(html) == [t.pk for t in newest_first[LOBBY_PAGE_SIZE:]]


def test_one_page_of_tables_has_no_page_links(client, alice):
    lifecycle.create_table(alice, seat_count=2)
    assert '<nav class="pager"' not in client.get(reverse("games:lobby")).content.decode()


def test_an_htmx_request_for_a_page_gets_that_page_of_the_list(client, alice):
    newest_first = many_open_tables(LOBBY_PAGE_SIZE + 3)
    html = client.get(
        reverse("games:lobby"), {"page": "2"}, headers={"HX-Request": "true"}
    ).content.decode()
    assert html.lstrip().startswith('<div id="open-tables"')
    assert card_ids(html) == [t.pk for t in newest_first[LOBBY_PAGE_SIZE:]]


# --- A table ----------------------------------------------------------------------------------


def test_joining_and_leaving_a_table(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=3)
    client.force_login(bob)
    response = client.post(reverse("games:table_join", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.seats.filter(user=bob).exists()
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="leave-table"' in page
    assert 'id="start-game"' not in page
    response = client.post(reverse("games:table_leave", args=[table.pk]))
    assert response["Location"] == reverse("games:lobby")
    assert not table.seats.filter(user=bob).exists()
    assert Table.objects.filter(pk=table.pk).exists()


def test_the_owner_leaving_closes_the_table(client, alice, bob):
    table = two_seat_table(alice, bob)
    client.force_login(alice)
    response = client.post(reverse("games:table_leave", args=[table.pk]))
    assert "You closed the table." in message_texts(response)
    assert not Table.objects.filter(pk=table.pk).exists()


def test_joining_a_full_table_is_refused_with_a_message(client, alice, bob, carol):
    table = two_seat_table(alice, bob)
    client.force_login(carol)
    response = client.post(reverse("games:table_join", args=[table.pk]))
    assert response.status_code == 302
    assert "This table is full." in message_texts(response)
    assert not table.seats.filter(user=carol).exists()


def test_joining_a_started_table_is_refused(client, alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=2, bots=["easy"])
    lifecycle.start_table(table, alice)
    client.force_login(carol)
    response = client.post(reverse("games:table_join", args=[table.pk]))
    assert "This table has already started." in message_texts(response)
    assert table.seats.count() == 2


def test_joining_twice_is_refused(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=3)
    lifecycle.join_table(table, bob)
    client.force_login(bob)
    response = client.post(reverse("games:table_join", args=[table.pk]), follow=True)
    assert "You are already sitting at this table." in response.content.decode()
    assert table.seats.filter(user=bob).count() == 1


def test_only_the_owner_can_start(client, alice, bob):
    table = two_seat_table(alice, bob)
    client.force_login(bob)
    response = client.post(reverse("games:table_start", args=[table.pk]))
    assert "Only the table's owner can start it." in message_texts(response)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert not Game.objects.exists()


def test_a_table_starts_only_when_full(client, alice):
    table = lifecycle.create_table(alice, seat_count=3)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert re.search(r'id="start-game" disabled aria-describedby="start-hint"', page)
    response = client.post(reverse("games:table_start", args=[table.pk]))
    assert "Every seat must be taken before the game starts." in message_texts(response)
    assert not Game.objects.exists()


def test_the_owner_starts_a_full_table_and_goes_to_the_game(client, alice, bob):
    table = two_seat_table(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert re.search(r'<button type="submit" id="start-game">Start game</button>', page)
    response = client.post(reverse("games:table_start", args=[table.pk]))
    game = Game.objects.get(table=table)
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f'id="go-to-game" href="{reverse("games:game", args=[game.pk])}"' in page


def test_starting_twice_changes_nothing(client, alice, bob):
    table = two_seat_table(alice, bob)
    client.force_login(alice)
    client.post(reverse("games:table_start", args=[table.pk]))
    response = client.post(reverse("games:table_start", args=[table.pk]))
    assert "This table has already started." in message_texts(response)
    assert Game.objects.filter(table=table).count() == 1


def test_htmx_buttons_get_a_client_redirect(client, alice, bob):
    table = two_seat_table(alice, bob)
    client.force_login(alice)
    response = client.post(
        reverse("games:table_start", args=[table.pk]), headers={"HX-Request": "true"}
    )
    game = Game.objects.get(table=table)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:game", args=[game.pk])


def test_a_started_table_sends_its_players_on_to_the_game_when_htmx_asks(client, alice, bob):
    table = two_seat_table(alice, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(bob)
    response = client.get(reverse("games:table", args=[table.pk]), headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == reverse("games:game", args=[game.pk])


@pytest.mark.parametrize("name", ["table_join", "table_leave", "table_start"])
def test_changes_need_post_a_login_and_an_existing_table(client, alice, bob, name):
    table = lifecycle.create_table(alice, seat_count=2)
    assert client.post(reverse(f"games:{name}", args=[table.pk])).status_code == 302  # login
    client.force_login(bob)
    assert client.get(reverse(f"games:{name}", args=[table.pk])).status_code == 405
    assert client.post(reverse(f"games:{name}", args=[table.pk + 100])).status_code == 404
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_an_unknown_table_is_404(client, alice):
    client.force_login(alice)
    assert client.get(reverse("games:table", args=[999])).status_code == 404


# --- Private tables and invitations ------------------------------------------------------------


def test_a_private_table_is_hidden_but_joinable_by_its_invitation_link(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)
    invite = reverse("games:invite", args=[table.invite_code])
    client.force_login(bob)
    assert f'data-table-id="{table.pk}"' not in client.get(reverse("games:lobby")).content.decode()
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 404
    assert client.post(reverse("games:table_join", args=[table.pk])).status_code == 404
    assert not table.seats.filter(user=bob).exists()

    page = client.get(invite)
    assert page.status_code == 200
    assert 'id="join-table"' in page.content.decode()
    assert not table.seats.filter(user=bob).exists()  # looking is not joining

    response = client.post(invite)
    assert response["Location"] == reverse("games:table", args=[table.pk])
    assert table.seats.filter(user=bob).exists()
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 200


def test_a_visitor_is_asked_to_log_in_at_a_private_table_with_a_bot_seat(client, alice):
    # A bot's seat has no user: compared with a visitor's missing id, it let any visitor see
    # the table (owner, players, status and the game's link).
    table = lifecycle.create_table(alice, seat_count=2, is_public=False, bots=["easy"])
    path = reverse("games:table", args=[table.pk])
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('account_login')}?next={path}"
    # The same answer for a number that is no table at all: it tells nothing.
    unknown = reverse("games:table", args=[table.pk + 1000])
    assert client.get(unknown)["Location"] == f"{reverse('account_login')}?next={unknown}"
    # A public table with a bot stays open to visitors.
    public = lifecycle.create_table(alice, seat_count=2, bots=["easy"])
    assert client.get(reverse("games:table", args=[public.pk])).status_code == 200


def test_the_invitation_link_is_shown_to_the_owner_only(client, alice, bob):
    table = lifecycle.create_table(alice, seat_count=3, is_public=False)
    lifecycle.join_table(table, bob)
    link = f"http://testserver{reverse('games:invite', args=[table.invite_code])}"
    client.force_login(alice)
    assert link in client.get(reverse("games:table", args=[table.pk])).content.decode()
    client.force_login(bob)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert table.invite_code not in page


def test_an_invitation_asks_visitors_to_log_in_first(client, alice):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)
    invite = reverse("games:invite", args=[table.invite_code])
    html = client.get(invite).content.decode()
    assert "Log in to join" in html
    response = client.post(invite)
    assert response["Location"].startswith(reverse("account_login"))
    assert table.seats.count() == 1


def test_an_invitation_to_a_full_table_says_so(client, alice, bob, carol):
    table = lifecycle.create_table(alice, seat_count=2, is_public=False)
    lifecycle.join_table(table, bob)
    invite = reverse("games:invite", args=[table.invite_code])
    client.force_login(carol)
    assert "This table is full." in client.get(invite).content.decode()
    response = client.post(invite, follow=True)
    assert "This table is full." in response.content.decode()
    assert not table.seats.filter(user=carol).exists()


def test_an_unknown_invitation_is_404(client, alice):
    client.force_login(alice)
    assert client.get(reverse("games:invite", args=["not-a-code"])).status_code == 404
    assert client.post(reverse("games:invite", args=["not-a-code"])).status_code == 404


# --- My games ---------------------------------------------------------------------------------


def test_my_games_puts_the_tables_where_it_is_my_turn_first(client, alice, bob, carol):
    waiting_for_bob = two_seat_table(alice, bob, options={"doubla": False})
    mine = two_seat_table(alice, carol, options={"doubla": False}, pace="slow", move_seconds=3600)
    game_a = lifecycle.start_table(waiting_for_bob, alice)
    game_b = lifecycle.start_table(mine, alice)
    # Seat 0 is Alice at both tables; move the turns where the test wants them.
    if whose_turn(game_a) == 0:
        discard_for(game_a)
    if whose_turn(game_b) == 1:
        discard_for(game_b)
    prelude = two_seat_table(alice, bob)  # doubla on: the game starts with the prelude
    lifecycle.start_table(prelude, alice)
    open_table = lifecycle.create_table(alice, seat_count=3)
    finished = two_seat_table(alice, bob)
    lifecycle.start_table(finished, alice)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)

    client.force_login(alice)
    html = client.get(reverse("games:my_games")).content.decode()
    order = [int(pk) for pk in re.findall(r'data-table-id="(\d+)"', html)]
    my_turn = html.split('id="my-turn"')[1].split("</section>")[0]
    assert f'data-table-id="{mine.pk}"' in my_turn
    assert f'data-table-id="{prelude.pk}"' in my_turn  # not ready yet: it's up to me
    assert f'data-table-id="{waiting_for_bob.pk}"' not in my_turn
    assert order.index(mine.pk) < order.index(waiting_for_bob.pk)
    assert order.index(waiting_for_bob.pk) < order.index(open_table.pk)
    assert order.index(open_table.pk) < order.index(finished.pk)
    assert "bob to play" in html
    assert reverse("games:game", args=[game_b.pk]) in my_turn
    # Alice plays at the table waiting for Bob: she opens her game, she does not watch it.
    waiting = html.split(f'data-table-id="{waiting_for_bob.pk}"')[1].split("data-table-id=")[0]
    assert "Open the game" in waiting and "Watch the game" not in html
    # The slow game's deadline is shown, machine-readably.
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT', my_turn)


def test_my_games_after_saying_ready_waits_for_the_others(client, alice, bob):
    table = two_seat_table(alice, bob)
    game = lifecycle.start_table(table, alice)
    services.play(game.pk, 0, "ready", 0)
    client.force_login(alice)
    html = client.get(reverse("games:my_games")).content.decode()
    assert 'id="my-turn"' not in html
    assert "waiting for the others" in html


def test_my_games_needs_few_queries(client, alice, bob, carol, django_assert_max_num_queries):
    for partner in (bob, carol, bob):
        lifecycle.start_table(two_seat_table(alice, partner), alice)
    lifecycle.create_table(alice, seat_count=4)
    finished = two_seat_table(alice, carol)
    lifecycle.start_table(finished, alice)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)
    client.force_login(alice)
    # User (the session is in the cache), active tables + seats + ratings, finished tables +
    # seats + ratings, the latest games.
    with django_assert_max_num_queries(8):
        html = client.get(reverse("games:my_games")).content.decode()
    assert html.count('class="table-card my-game') == 5


def test_my_games_shows_only_my_tables(client, alice, bob, carol):
    theirs = two_seat_table(bob, carol)
    lifecycle.start_table(theirs, bob)
    client.force_login(alice)
    html = client.get(reverse("games:my_games")).content.decode()
    assert f'data-table-id="{theirs.pk}"' not in html
    assert "You are not sitting at any table." in html


def test_a_table_seat_shows_a_bot_by_its_level(alice):
    table = lifecycle.create_table(alice, seat_count=2, bots=["hard"])
    assert Seat.objects.get(table=table, position=1).display_name == "Bot (hard) 2"


@pytest.mark.parametrize("name", ["table_join", "table_leave", "table_start"])
def test_a_table_closed_while_the_request_runs_gives_a_message(
    client, alice, bob, monkeypatch, name
):
    table = lifecycle.create_table(alice, seat_count=2)
    lifecycle.join_table(table, bob)
    stale = Table.objects.get(pk=table.pk)
    Table.objects.filter(pk=table.pk).delete()
    # The view found the table; the service, a moment later, does not.
    monkeypatch.setattr("games.tables.lobby.present.visible_table", lambda pk, viewer: stale)
    client.force_login(alice if name == "table_start" else bob)
    response = client.post(reverse(f"games:{name}", args=[table.pk]))
    assert response["Location"] == reverse("games:lobby")
    assert "This table was closed." in message_texts(response)


def test_a_table_number_too_big_for_the_database_is_404(client, alice):
    client.force_login(alice)
    huge = 2**70
    assert client.get(f"/tables/{huge}/").status_code == 404
    assert client.post(f"/tables/{huge}/join/").status_code == 404


@pytest.mark.parametrize("key", ["remi", "rummikub", "basic-rummy"])
def test_my_games_links_a_finished_series_to_its_result_and_replay_and_names_the_winner(
    client, alice, bob, key
):
    game = play_out(start(alice, bob, key))
    table = Table.objects.get(pk=game.table_id)
    if table.status != Table.Status.FINISHED:  # a longer series: play every game of it
        while table.status != Table.Status.FINISHED:
            game = play_out(lifecycle.next_game(table))
            table.refresh_from_db()
    totals = [sum(scores[i] for scores in table.series["games"]) for i in range(2)]
    best = max(totals)
    names = {0: alice.public_name, 1: bob.public_name}
    winners = [names[i] for i in range(2) if totals[i] == best]
    client.force_login(alice)
    html = client.get(reverse("games:my_games")).content.decode()
    finished = html[html.index('id="finished"') :]
    assert f'href="/games/{game.pk}/"' in finished and "See the result" in finished
    assert f'href="/games/{game.pk}/replay/"' in finished
    if len(winners) == 1:
        assert f"Won by {winners[0]}" in finished
    else:
        assert "Shared win: " + ", ".join(winners) in finished
    # The links lead to the result and the replay.
    assert "Verify the deal" in client.get(f"/games/{game.pk}/").content.decode()
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200
