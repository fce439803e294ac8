"""The table owner's choice of bot speed: instant, normal (the site's pause) or slow (three
times it) at tables with people; bot-only tables never wait."""

from __future__ import annotations

import pytest

from games.models import Table
from games.tables import lifecycle
from games.tasks import bot_pause
from tests.games.test_lobby_views import form_data

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("speed", "pause"), [("instant", 0.0), ("normal", 0.8), ("slow", 2.4)])
def test_the_lobby_form_sets_the_pause_before_each_bot_move(client, settings, alice, speed, pause):
    settings.BOT_MOVE_DELAY_SECONDS = 0.8
    client.force_login(alice)
    form = form_data(seat_count="2", bots="1", bot_level="easy", bot_speed=speed)
    response = client.post("/tables/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.bot_speed == speed
    game = lifecycle.start_table(table, alice)
    assert bot_pause(game.pk) == pytest.approx(pause)


def test_an_unknown_speed_is_refused_and_makes_no_table(alice):
    with pytest.raises(lifecycle.TableError, match="Unknown bot speed 'warp'"):
        lifecycle.create_table(
            alice, game_type="remi", seat_count=2, bots=["easy"], bot_speed="warp"
        )
    assert not Table.objects.exists()


def test_tables_of_bots_only_never_wait(settings, alice):
    settings.BOT_MOVE_DELAY_SECONDS = 0.8
    table = lifecycle.create_arranged_table(
        alice, ["easy", "normal"], game_type="remi", options={"doubla": False}
    )
    game = lifecycle.start_table(table, alice)
    assert bot_pause(game.pk) == 0.0
