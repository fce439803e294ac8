"""A site with rows in every admin list, and two games in play whose hidden information can
be exchanged (issue 27).

Whatever an admin page answers a staff user without ``games.view_hidden_information`` must be
the same before and after :meth:`AdminWorld.exchange`: the two games (their states, their
tables' series, their seats' rack orders, their moves) swap everything they hide, and two
players swap their password hashes, while every other column stays as it was.  An answer that
differs told the user something about what is hidden: a filter matched the other game, an
ordering followed the hidden values.  The lookups and guesses here are shared by the
exhaustive regression test and the fuzzing suite.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat.models import ChatBan, ChatMessage, Room
from games.models import Action, Game, Seat, Table
from games.play import services
from games.tables import lifecycle
from notifications.models import Notice, Preferences
from tournaments.models import (
    AuditEntry,
    Match,
    Rating,
    RatingChange,
    Registration,
    Round,
    Tournament,
)

# The lookups the issue names; JSON fields get key transforms on top (``state__seed__…``).
LOOKUPS = ("exact", "icontains", "contains", "startswith", "regex", "gt")

# What the world exchanges: the columns that hold a game's secrets, and the password hash.
SECRET_COLUMNS: dict[type[models.Model], tuple[str, ...]] = {
    Game: ("state",),
    Table: ("series",),
    Seat: ("rack_order",),
    Action: ("notation", "events"),
    User: ("password",),
}


def changelists() -> list[tuple[type[models.Model], str]]:
    """Every admin changelist of the site, found in the registry: a new admin is covered."""
    return sorted(
        (
            (model, reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist"))
            for model in admin.site._registry
        ),
        key=lambda pair: pair[1],
    )


def is_secret(model: type[models.Model], name: str) -> bool:
    return any(
        issubclass(model, owner) and name in names for owner, names in SECRET_COLUMNS.items()
    )


def relations(model: type[models.Model]) -> list[models.Field | models.ForeignObjectRel]:
    return [f for f in model._meta.get_fields() if f.is_relation and f.related_model is not None]


def paths_to_secrets(model: type[models.Model], hops: int) -> Iterator[tuple[str, type, str]]:
    """``(path, model holding it, column)`` for every secret column reachable from ``model``
    over at most ``hops`` relations: ``state``, ``game__state``, ``table__seats__rack_order``."""
    for owner, names in SECRET_COLUMNS.items():
        if issubclass(model, owner):
            for name in names:
                yield name, owner, name
    if hops:
        for relation in relations(model):
            for path, owner, name in paths_to_secrets(relation.related_model, hops - 1):
                yield f"{relation.name}__{path}", owner, name


def local_fields(model: type[models.Model]) -> list[str]:
    """Every field name of ``model``, its reverse relations included."""
    return [f.name for f in model._meta.get_fields()]


@dataclass
class AdminWorld:
    """What :func:`build_world` made: who looks, the two games, the two players whose
    password hashes are swapped, and how to exchange the secrets."""

    organiser: User
    games: tuple[Game, Game]
    players: tuple[User, User]
    # Each row whose secret columns the exchange swaps: (model, pk, its own secrets, the
    # other game's).  Read once, so an exchange is a few updates.
    rows: list[tuple[type[models.Model], int, dict[str, Any], dict[str, Any]]]
    exchanged: bool = False

    def exchange(self) -> None:
        """Swap every secret between the two games (and the two players' password hashes),
        or swap them back."""
        self.exchanged = not self.exchanged
        for model, pk, own, other in self.rows:
            # ``update`` leaves every other column, ``updated_at`` included, as it was.
            model.objects.filter(pk=pk).update(**(other if self.exchanged else own))

    def guesses(self) -> dict[tuple[type[models.Model], str, str], str]:
        """Pieces of the first game's secrets as they are now, by the model and column that
        hold them and the key transform that reaches them ('' for the whole column): a lookup
        for one matches the first game's row before the exchange, the second game's after."""
        game = Game.objects.select_related("table").get(pk=self.games[0].pk)
        tiles = Seat.objects.get(table_id=game.table_id, position=0).rack_order["tiles"]
        move, draw = game.actions.get(version=1), game.actions.get(version=2)
        password = User.objects.get(pk=self.players[0].pk).password
        return {
            (Game, "state", ""): game.state["seed"][:12],
            (Game, "state", "seed"): game.state["seed"],
            (Table, "series", ""): game.table.series["seed"][:12],
            (Table, "series", "seed"): game.table.series["seed"],
            (Seat, "rack_order", ""): json.dumps(tiles[:3])[1:-1],
            (Seat, "rack_order", "tiles__0"): tiles[0],
            (Action, "notation", ""): move.notation,
            (Action, "events", ""): json.dumps(draw.events[0]),
            (Action, "events", "0__secret__0"): draw.events[0]["secret"][0],
            (User, "password", ""): password[-24:-4],  # in the salt and the hash
        }

    def every_guess(self) -> dict[tuple[type[models.Model], str, str], list[str]]:
        """The guesses at the first game's secrets and at the second's, by what they guess."""
        first = self.guesses()
        self.exchange()
        second = self.guesses()
        self.exchange()
        return {key: [first[key], second[key]] for key in first}


# The key transforms AdminWorld.guesses has a guess for, by model and column.
TRANSFORMS: dict[tuple[type[models.Model], str], tuple[str, ...]] = {
    (Game, "state"): ("seed",),
    (Table, "series"): ("seed",),
    (Seat, "rack_order"): ("tiles__0",),
    (Action, "events"): ("0__secret__0",),
}


def secret_keys(model: type[models.Model], hops: int) -> Iterator[tuple[str, type, str, str]]:
    """``(key without its lookup, model holding the secret, column, transform)`` for every
    secret within ``hops`` relations of ``model``, whole and through each key transform."""
    for path, owner, column in paths_to_secrets(model, hops):
        for transform in ("", *TRANSFORMS.get((owner, column), ())):
            yield (f"{path}__{transform}" if transform else path), owner, column, transform


def open_keys(model: type[models.Model]) -> list[str]:
    """Every lookup of the issue on every field of ``model`` that holds no secret."""
    return [
        f"{name}__{lookup}"
        for name in local_fields(model)
        if not is_secret(model, name)
        for lookup in LOOKUPS
    ]


def grant_everything_but_hidden_information(user: User) -> None:
    """Staff with every permission of every admin (view, change, add, delete) except
    ``games.view_hidden_information``: an organiser who also plays."""
    user.is_staff = True
    user.save()
    types = [ContentType.objects.get_for_model(model) for model in admin.site._registry]
    user.user_permissions.set(
        Permission.objects.filter(content_type__in=types).exclude(
            codename="view_hidden_information"
        )
    )


def game_in_play(owner: User, guest: User) -> Game:
    """A two-seat game after a discard and a draw, each seat's rack arranged by its player."""
    table = lifecycle.create_table(owner, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, guest)
    game = lifecycle.start_table(table, owner)
    first = game.state["first_player"]
    tile = game.state["racks"][first].split()[0]
    services.play(game.pk, first, f"discard {tile}", 0)
    services.play(game.pk, 1 - first, "draw", 1)
    game = Game.objects.get(pk=game.pk)
    for seat in Seat.objects.filter(table=table):
        seat.rack_order = {"game": game.pk, "tiles": game.state["racks"][seat.position].split()}
        seat.save()
    return game


def build_world(alice: User, bob: User, carol: User) -> AdminWorld:
    """Alice organises (staff, no hidden information) and plays Bob; Carol plays Bob too.
    Every admin list holds at least one row, most of them tied to the first game."""
    grant_everything_but_hidden_information(alice)
    first, second = game_in_play(alice, bob), game_in_play(carol, bob)
    pairs = [
        (Game, first.pk, second.pk),
        (Table, first.table_id, second.table_id),
        (User, bob.pk, carol.pk),
    ]
    for position in (0, 1):
        pairs.append(
            (
                Seat,
                Seat.objects.get(table_id=first.table_id, position=position).pk,
                Seat.objects.get(table_id=second.table_id, position=position).pk,
            )
        )
    for version in (1, 2):
        pairs.append(
            (
                Action,
                first.actions.get(version=version).pk,
                second.actions.get(version=version).pk,
            )
        )
    tournament = Tournament.objects.create(
        name="Spring cup", organiser=alice, game_type="remi", status=Tournament.Status.RUNNING
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.PLAYING)
    Match.objects.create(
        tournament=tournament,
        round=round_,
        index=0,
        players=[alice.pk, bob.pk],
        table_id=first.table_id,
        status=Match.Status.PLAYING,
    )
    for user in (alice, bob):
        Registration.objects.create(tournament=tournament, user=user)
        Rating.objects.create(user=user, game_type="remi")
        RatingChange.objects.create(
            user=user,
            game=first,
            game_type="remi",
            place=1,
            mu_before=25,
            sigma_before=8,
            mu_after=26,
            sigma_after=7,
        )
    AuditEntry.objects.create(tournament=tournament, actor=alice, kind="pairing", what="Round 1")
    ChatMessage.objects.create(game=first, author=bob, room=Room.PLAYERS, text="good luck")
    ChatMessage.objects.create(game=second, author=carol, room=Room.SPECTATORS, text="hello")
    ChatBan.objects.create(user=carol, reason="spam", banned_by=alice)
    Notice.objects.create(kind="turn", user=bob, game=first, seat=1, turn="2")
    Notice.objects.create(kind="digest", user=bob, day=date(2025, 3, 1))
    Preferences.objects.create(user=bob, digest_hour=8)
    Group.objects.create(name="Organisers")
    rows = []
    for model, one, other in pairs:
        columns = SECRET_COLUMNS[model]
        ones, others = (model.objects.filter(pk=pk).values(*columns).get() for pk in (one, other))
        rows += [(model, one, ones, others), (model, other, others, ones)]
    return AdminWorld(organiser=alice, games=(first, second), players=(bob, carol), rows=rows)


# The CSRF token is masked anew on every page: in the admin's forms, in the site's headers.
CSRF_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[A-Za-z0-9]*"')


# The messages queued by earlier requests of the session (a refused filter's "Null characters
# are not allowed.", whose redirect shows no page) are shown by whichever page comes next: by
# the first of a pair of requests and not the second, whatever the games hide.
PENDING_MESSAGES = re.compile(r'<ul class="(?:messages|messagelist)"[^>]*>.*?</ul>', re.S)


def answer(client: Client, path: str, params: dict[str, Any]) -> tuple[int, str, str]:
    """What the user is told: the status, where a redirect leads, and the page (its CSRF
    token aside, which is new on every page, and the messages earlier requests left; runs of
    white space as one)."""
    response = client.get(path, params)
    body = response.content.decode(errors="replace")
    body = PENDING_MESSAGES.sub("", CSRF_TOKEN.sub(r"\1", body))
    # The blank lines around a message list stay when it is taken out.
    body = re.sub(r"\s+", " ", body)
    return response.status_code, response.get("Location", ""), body
