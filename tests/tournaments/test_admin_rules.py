"""Issue 30, fault 10: an organiser sets a tournament's rules with the lobby's widgets (the
game's presets as a choice, each rule option as its own field), not as raw text and JSON.

Only the options set apart from the chosen rules are stored, so choosing other rules brings
their options, and a table of the tournament is dealt with what the organiser saw."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.urls import reverse

from games.engine import GAMES
from games.presenters import presenter_for
from games.tables import lifecycle
from tests.conftest import make_user
from tournaments.forms import RULE_PREFIX, RULES_OF, rule_option_names
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

INLINES = ("registrations", "round_set", "matches", "audit")


@pytest.fixture
def organiser(client):
    user = make_user("organiser", is_staff=True, is_superuser=True)
    client.force_login(user)
    return user


def shown_form(response) -> forms.Form:
    assert response.status_code == 200
    return response.context["adminform"].form


def as_posted(form: forms.Form, **changes: Any) -> dict[str, Any]:
    """What the browser posts for ``form`` as drawn, with ``changes`` (None unticks a box)."""
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)
        else:
            data[name] = value
    for prefix in INLINES:
        data[f"{prefix}-TOTAL_FORMS"] = "0"
        data[f"{prefix}-INITIAL_FORMS"] = "0"
    return data


def a_switch(game_type: str) -> str:
    """The first yes/no rule option of ``game_type``."""
    fields = presenter_for(game_type).form_fields()
    return next(
        n for n in rule_option_names(game_type) if isinstance(fields[n], forms.BooleanField)
    )


def settings_for(game_type: str) -> dict[str, Any]:
    """The rest of a valid round robin of ``game_type``."""
    game = GAMES[game_type]
    return {
        "name": f"{game_type} open",
        "game_type": game_type,
        "seat_count": str(game.min_seats),
        "format": "round_robin",
        "min_players": str(game.min_seats),
        "games_per_match": "1",
        "pace": "live",
        "move_seconds": "0",
    }


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_the_add_page_offers_the_games_presets_and_options_as_widgets(client, organiser, game_type):
    page = client.get(reverse("admin:tournaments_tournament_add"), {"game_type": game_type})
    form = shown_form(page)
    game = GAMES[game_type]
    assert [value for value, _ in form.fields["preset"].choices][1:] == list(game.presets)
    html = page.content.decode()
    assert 'name="options"' not in html  # no raw JSON box
    for name in rule_option_names(game_type):
        assert f'name="{RULE_PREFIX}{name}"' in html
    # The series options are the tournament's own fields, not the rules'.
    assert f'name="{RULE_PREFIX}series_games"' not in html
    shown = presenter_for(game_type).rule_options(game.presets[game.default_preset])
    for name in rule_option_names(game_type):
        assert form[RULE_PREFIX + name].value() == shown[name]
    assert form[RULES_OF].value() == game_type


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_an_option_changed_is_stored_alone_and_deals_the_tables(client, organiser, game_type):
    add = reverse("admin:tournaments_tournament_add")
    form = shown_form(client.get(add, {"game_type": game_type}))
    switch = a_switch(game_type)
    was = form[RULE_PREFIX + switch].value()
    data = as_posted(
        form, **settings_for(game_type), **{RULE_PREFIX + switch: None if was else "on"}
    )
    response = client.post(add, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name=f"{game_type} open")
    assert tournament.options == {switch: not was}
    _, _, rules = lifecycle.checked_rules(
        game_type, tournament.preset or None, tournament.options, tournament.seat_count
    )
    assert getattr(rules, switch) is (not was)
    # The change page shows the stored choice, and saving it unchanged keeps it.
    change = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    form = shown_form(client.get(change))
    assert form[RULE_PREFIX + switch].value() is (not was)
    assert client.post(change, as_posted(form)).status_code == 302
    tournament.refresh_from_db()
    assert tournament.options == {switch: not was}


def test_choosing_other_rules_brings_their_options(client, organiser):
    # Whatever the other rules set, nothing is stored as a change when only they were chosen.
    game = GAMES["remi"]
    other = next(p for p in game.presets if p != game.default_preset)
    add = reverse("admin:tournaments_tournament_add")
    form = shown_form(client.get(add, {"game_type": "remi"}))
    data = as_posted(form, **settings_for("remi"), preset=other)
    assert client.post(add, data).status_code == 302
    tournament = Tournament.objects.get(name="remi open")
    assert (tournament.preset, tournament.options) == (other, {})
    form = shown_form(
        client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    )
    preset_options = presenter_for("remi").rule_options(game.presets[other])
    for name in rule_option_names("remi"):
        assert form[RULE_PREFIX + name].value() == preset_options[name]


def test_another_game_starts_from_its_own_usual_rules(client, organiser):
    add = reverse("admin:tournaments_tournament_add")
    form = shown_form(client.get(add, {"game_type": "remi"}))
    switch = a_switch("remi")
    was = form[RULE_PREFIX + switch].value()
    data = as_posted(
        form,
        **settings_for("thai-rummy"),
        preset="remi-45",
        **{RULE_PREFIX + switch: None if was else "on"},
    )
    assert client.post(add, data).status_code == 302
    tournament = Tournament.objects.get(name="thai-rummy open")
    # Remi's preset and option mean nothing to Thai Rummy: its own usual rules, no options.
    assert (tournament.game_type, tournament.preset, tournament.options) == ("thai-rummy", "", {})
    form = shown_form(
        client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    )
    assert form[RULES_OF].value() == "thai-rummy"
    assert f"{RULE_PREFIX}{a_switch('thai-rummy')}" in form.fields
