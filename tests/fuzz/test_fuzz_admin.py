"""Fuzzing the query string of every admin changelist (issue 27).

Every admin registered with the site is found in ``admin.site._registry``, so a new one is
fuzzed without anyone adding it here.  The user is staff with every permission of every admin
but ``games.view_hidden_information``; the query strings mix lookups that walk the model's
relations into any field (the hidden ones included, with JSON key transforms), the declared
filters' own parameters, Django's (``o``, ``q``, ``p``, ``_facets`` …), garbage, and values
that are pieces of the games' secrets.

Properties for every input: never a 500, nothing logged at ERROR, and the same answer before
and after the two games of the world exchange everything they hide
(``tests/site/admin_world.py``): an answer that changed would have told the user something.
"""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.db import models
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.conftest import fuzz_settings
from tests.fuzz.strategies import any_text
from tests.site.admin_world import (
    AdminWorld,
    answer,
    build_world,
    changelists,
    relations,
    secret_keys,
)

pytestmark = pytest.mark.django_db

# Lookups and transforms Django knows, those of the issue first; JSON columns take keys too.
LOOKUP_NAMES = [
    "exact", "icontains", "contains", "startswith", "regex", "gt", "iexact", "istartswith",
    "endswith", "iregex", "gte", "lt", "in", "isnull", "range", "year", "month", "date",
    "has_key", "has_keys", "has_any_keys", "contained_by", "isempty", "search", "id", "pk",
    "length", "lower",
]  # fmt: skip
JSON_KEYS = ["seed", "racks", "wall", "tiles", "secret", "0", "1", "-1", "game", "dealer"]
# Django's own parameters of a changelist.
DJANGO_PARAMETERS = ["o", "q", "p", "all", "e", "_facets", "_popup", "_to_field"]


@st.composite
def lookup_key(draw: st.DrawFn, model: type[models.Model]) -> str:
    """A lookup as a changelist's query string spells it: up to three relations from
    ``model``, a field of where they lead (any field), key transforms into a JSON column,
    and a lookup or none."""
    parts: list[str] = []
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        if not relations(model):
            break
        relation = draw(st.sampled_from(relations(model)))
        parts.append(relation.name)
        model = relation.related_model
    field = draw(st.sampled_from(model._meta.get_fields()))
    parts.append(field.name)
    if isinstance(field, models.JSONField):
        parts += draw(st.lists(st.sampled_from(JSON_KEYS) | any_text, max_size=3))
    parts += draw(st.lists(st.sampled_from(LOOKUP_NAMES), max_size=2))
    return "__".join(parts)


def declared_keys(model_admin: admin.ModelAdmin) -> list[str]:
    """The parameters of the admin's declared filters and date hierarchy, and their
    neighbours: other lookups of the same fields."""
    keys = []
    for item in model_admin.list_filter:
        if isinstance(item, type):
            keys.append(item.parameter_name)
            continue
        path = item[0] if isinstance(item, list | tuple) else item
        keys += [f"{path}__{end}" for end in ("exact", "isnull", "id__exact", "gte", "lt")]
        keys += [f"{path}__isempty", f"{path}__icontains", path]
    if model_admin.date_hierarchy:
        keys += [f"{model_admin.date_hierarchy}__{end}" for end in ("year", "month", "day", "gte")]
    return keys


@pytest.fixture
def world(alice, bob, carol) -> AdminWorld:
    return build_world(alice, bob, carol)


@pytest.fixture
def organiser(world) -> Client:
    # A 500 is an answer to compare, not an exception that ends the example.
    client = Client(raise_request_exception=False)
    client.force_login(world.organiser)
    return client


@pytest.fixture
def guesses(world) -> dict[tuple[type[models.Model], str, str], list[str]]:
    return world.every_guess()


@st.composite
def guess_at_a_secret(draw: st.DrawFn, model: type[models.Model], guesses: dict) -> dict:
    """A lookup of the issue on a secret within two relations of ``model``, with a piece of
    one game's secret for its value: the guess that a leaking changelist answers."""
    key, owner, column, transform = draw(st.sampled_from(list(secret_keys(model, hops=2))))
    lookup = draw(st.sampled_from(LOOKUP_NAMES[:6]))
    piece = draw(st.sampled_from(guesses[owner, column, transform]))
    return {f"{key}__{lookup}": re.escape(piece) if lookup == "regex" else piece}


def only_django_refusing_a_to_field(status: int, logged: list[str]) -> bool:
    """Django answers a ``_to_field`` that no relation uses with a 400 and a line in its
    security log, as it should: a staff member probing the admin is worth a line there."""
    return status == 400 and all(
        line.startswith("django.security.DisallowedModelAdminToField:") for line in logged
    )


@fuzz_settings(300)
@given(data=st.data())
def test_fuzz_the_query_string_of_every_admin_changelist(
    world, organiser, guesses, error_log, count_input, data
):
    count_input()
    model, url = data.draw(st.sampled_from(changelists()))
    model_admin = admin.site._registry[model]
    keys = st.one_of(
        lookup_key(model),
        st.sampled_from(declared_keys(model_admin) + DJANGO_PARAMETERS),
        any_text.filter(bool),
    )
    pieces = [piece for both in guesses.values() for piece in both]
    value = st.one_of(
        st.sampled_from(pieces),
        st.integers(min_value=-2, max_value=10**20).map(str),
        st.lists(st.integers(min_value=-9, max_value=12).map(str), min_size=1).map(".".join),
        # Values the declared filters take, and what PostgreSQL cannot compare with.
        st.sampled_from(["", "0", "1", "yes", "playing", "finished", "players", "\x00", "1\x00"]),
        any_text,
    )
    params = data.draw(
        st.dictionaries(keys, value | st.lists(value, min_size=2, max_size=3), max_size=3)
    )
    if data.draw(st.booleans()):
        params |= data.draw(guess_at_a_secret(model, guesses))

    before = answer(organiser, url, params)
    logged = error_log.take()
    world.exchange()
    after = answer(organiser, url, params)
    logged += error_log.take()

    assert before[0] < 500, before[2][:500]
    assert logged == [] or only_django_refusing_a_to_field(before[0], logged), logged
    assert before == after, f"{url} {params!r} answers by what the games hide"
