"""Issue 27, fault 1: the admin's changelists answered lookups on hidden fields.

A staff user with the ordinary view permission but without ``games.view_hidden_information``
read the seed of a game still being played one guess at a time, from
``/admin/games/game/?state__icontains=<guess>&id__exact=1`` (the game was listed only when
the guess matched); ``/admin/games/table/?series__icontains=`` did the same with the series,
and ``?state__contains=x`` answered 500 on SQLite.  A changelist now honours only its declared
filters, and its search and ordering never reach a hidden field for such a user.

The world (``tests/site/admin_world.py``) has two games in play that can exchange all they
hide: an answer that changes with the exchange told the user something hidden."""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import Client, RequestFactory
from django.utils import timezone
from django.utils.module_loading import import_string

from chat.models import ChatMessage
from games.models import Game, Table
from tests.site.admin_world import (
    LOOKUPS,
    AdminWorld,
    answer,
    build_world,
    changelists,
    open_keys,
    secret_keys,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(alice, bob, carol) -> AdminWorld:
    return build_world(alice, bob, carol)


@pytest.fixture
def organiser(world) -> Client:
    # A 500 is an answer to look at, not an exception that ends the test.
    client = Client(raise_request_exception=False)
    client.force_login(world.organiser)
    return client


def digest(reply: tuple[int, str, str]) -> tuple[int, str, str]:
    """The answer with its page as a hash: short to keep and to show."""
    status, location, body = reply
    return status, location, hashlib.sha256(body.encode()).hexdigest()


def not_a_guess(text: str) -> str:
    """``text`` with its last character changed into one no seed or hash holds."""
    return text[:-1] + "~"


def test_guessing_at_a_games_seed_in_the_changelist_tells_nothing(world, organiser):
    game = world.games[0]
    seed = game.state["seed"]
    right = digest(
        answer(
            organiser, "/admin/games/game/", {"state__icontains": seed[:6], "id__exact": game.pk}
        )
    )
    wrong = digest(
        answer(
            organiser,
            "/admin/games/game/",
            {"state__icontains": not_a_guess(seed[:6]), "id__exact": game.pk},
        )
    )
    assert right[0] < 500
    assert right == wrong


def test_guessing_at_a_tables_series_seed_in_the_changelist_tells_nothing(world, organiser):
    table = Table.objects.get(pk=world.games[0].table_id)
    seed = table.series["seed"]
    right = digest(answer(organiser, "/admin/games/table/", {"series__icontains": seed[:6]}))
    wrong = digest(
        answer(organiser, "/admin/games/table/", {"series__icontains": not_a_guess(seed[:6])})
    )
    assert right[0] < 500
    assert right == wrong


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("/admin/games/game/", "state__contains"),
        ("/admin/games/table/", "series__contains"),
        ("/admin/games/seat/", "rack_order__contains"),
        ("/admin/games/action/", "events__contains"),
        ("/admin/notifications/notice/", "params__contains"),
        ("/admin/tournaments/tournament/", "standings__contains"),
    ],
)
def test_a_contains_lookup_on_a_json_column_is_not_a_500(world, organiser, url, key):
    assert organiser.get(url, {key: "x"}).status_code < 500


def test_no_lookup_on_any_field_of_any_admin_depends_on_hidden_information(world, organiser):
    """For every admin of the site, every lookup of the issue on every field of its model,
    and on every secret one relation away (``game__state``, ``table__series``, key
    transforms into them): never a 500, and the answer is the same before and after the
    two games exchange their secrets."""
    asked: dict[tuple[str, str], tuple[int, str, str]] = {}
    guesses = world.guesses()
    for model, url in changelists():
        for key in open_keys(model):
            status = organiser.get(url, {key: "1"}).status_code
            assert status < 500, f"{url}?{key}=1 answered {status}"
        for key, owner, column, transform in secret_keys(model, hops=1):
            guess = guesses[owner, column, transform]
            for lookup in LOOKUPS:
                query = urlencode(
                    {f"{key}__{lookup}": re.escape(guess) if lookup == "regex" else guess}
                )
                asked[url, query] = digest(answer(organiser, f"{url}?{query}", {}))
                assert asked[url, query][0] < 500, f"{url}?{query} answered a 500"
    world.exchange()
    changed = [
        f"{url}?{query}"
        for (url, query), before in asked.items()
        if digest(answer(organiser, f"{url}?{query}", {})) != before
    ]
    assert changed == [], f"{len(changed)} answers depend on hidden information: {changed[:5]}"


def listed(client: Client, url: str, params: dict[str, object]) -> list[int]:
    response = client.get(url, params)
    assert response.status_code == 200, (url, params, response.get("Location"))
    return [row.pk for row in response.context["cl"].result_list]


def test_the_declared_filters_still_filter(world, organiser):
    first, second = world.games
    Game.objects.filter(pk=second.pk).update(flagged_at=timezone.now())
    assert listed(organiser, "/admin/games/game/", {"flagged": "yes"}) == [second.pk]
    assert listed(organiser, "/admin/games/game/", {"status__exact": "finished"}) == []
    actions = listed(organiser, "/admin/games/action/", {"game__id__exact": first.pk})
    assert sorted(actions) == sorted(first.actions.values_list("pk", flat=True))
    tournament = Tournament.objects.get()
    registrations = {"tournament__id__exact": tournament.pk, "tournament__status__exact": "running"}
    assert len(listed(organiser, "/admin/tournaments/registration/", registrations)) == 2
    messages = listed(
        organiser,
        "/admin/chat/chatmessage/",
        {"created_at__year": timezone.now().year, "room__exact": "players"},
    )
    assert messages == [ChatMessage.objects.get(room="players").pk]


def test_a_refused_lookup_answers_as_django_does_for_a_wrong_one_and_is_logged(
    world, organiser, caplog
):
    for params in ({"game__id__exact": "²"}, {"game__state__icontains": "a"}):
        response = organiser.get("/admin/games/action/", params)
        assert response.status_code == 302
        assert response["Location"] == "/admin/games/action/?e=1"
    refused = [r.getMessage() for r in caplog.records if r.name == "remi_site.admin_site"]
    assert refused == [
        f"Admin lookup refused: user {world.organiser.pk} asked games.Action for"
        " 'game__state__icontains', which no declared filter takes"
    ]


class SortsAndSearchesByTheState(admin.ModelAdmin):
    """An admin as someone might write it tomorrow: the state as a column, searched,
    sorted and filtered by."""

    list_display = ("id", "state")
    search_fields = ("state",)
    list_filter = ("table__series",)
    ordering = ("state",)


def changelist_of(site: admin.AdminSite, user, params: dict[str, object]):
    request = RequestFactory().get("/admin/games/game/", params)
    request.user = user
    return site._registry[Game].changelist_view(request).context_data["cl"]


def test_a_new_admin_cannot_search_sort_or_filter_by_hidden_information(world):
    """Whatever a future admin declares, the site keeps hidden fields out of the search,
    the ordering (the ``o=`` columns too) and the filters of a user without the permission."""
    # Another instance of the site the project configures, named as its links are made.
    site = import_string(apps.get_app_config("admin").default_site)(name="admin")
    site.register(Game, SortsAndSearchesByTheState)
    organiser = world.organiser
    seed = world.guesses()[Game, "state", "seed"]
    shown = []
    for _ in range(2):
        found = changelist_of(site, organiser, {"q": seed[:12]})
        # Nothing left to search in: every game is listed.
        assert sorted(game.pk for game in found.result_list) == [g.pk for g in world.games]
        # The admin's own ordering, and o=2: the third column, after the checkbox and the id.
        for params in ({}, {"o": "2"}, {"o": "-2"}):
            shown.append([game.pk for game in changelist_of(site, organiser, params).result_list])
        assert "state" not in found.sortable_by
        assert found.filter_specs == []
        world.exchange()
    assert shown[:3] == shown[3:]

    organiser.user_permissions.add(Permission.objects.get(codename="view_hidden_information"))
    organiser = type(organiser).objects.get(pk=organiser.pk)  # no cached permissions
    found = changelist_of(site, organiser, {"q": seed[:12]})
    assert [game.pk for game in found.result_list] == [world.games[0].pk]
    assert "state" in found.sortable_by
    assert len(found.filter_specs) == 1


@pytest.mark.parametrize(
    ("url", "params"),
    [
        ("/admin/games/game/", {"status__exact": "playing\x00"}),
        ("/admin/tournaments/registration/", {"tournament__status__exact": "\x00"}),
        ("/admin/games/game/", {"q": "\x00"}),
    ],
)
def test_a_nul_character_in_a_declared_filter_is_not_a_500(world, organiser, url, params):
    """PostgreSQL refuses to compare text with a NUL character in it."""
    assert organiser.get(url, params).status_code < 500
