"""The registrations admin picks the player by name (autocomplete), not by typing a user id."""

from __future__ import annotations

import pytest

from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):
    client.force_login(make_user("organiser", is_staff=True, is_superuser=True))
    return client


def test_registration_form_has_a_player_autocomplete(organiser):
    page = organiser.get("/admin/tournaments/registration/add/").content.decode()
    assert 'class="admin-autocomplete' in page
    assert 'data-field-name="user"' in page


def test_player_autocomplete_answers_by_display_name_and_not_by_email(organiser):
    make_user("player1", display_name="Margareta")
    make_user("player2", display_name="Zoltan", email="marg@example.com")
    response = organiser.get(
        "/admin/autocomplete/",
        {
            "term": "marg",
            "app_label": "tournaments",
            "model_name": "registration",
            "field_name": "user",
        },
    )
    assert response.status_code == 200
    names = [row["text"] for row in response.json()["results"]]
    assert names == ["Margareta"]
