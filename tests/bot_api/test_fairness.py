"""A bot's seat is a player's seat: its clock runs as anyone's, and its line tells it when
its time runs out."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from bot_api import play
from games.models import Game
from tests.bot_api.helpers import bot_account, game_with_bot, play_for

pytestmark = pytest.mark.django_db


def test_the_bots_clock_runs_as_anyones(alice) -> None:
    robo, _key = bot_account()
    game = game_with_bot(alice, robo, move_seconds=60)
    seat = game.table.seats.get(user=robo)
    rng = random.Random(1)
    while 1 not in game.to_act:
        assert play.game_line(game, seat)["deadline"] is None  # not its turn: no clock
        play_for(game, min(game.to_act), rng)
        game = Game.objects.select_related("table").get(pk=game.pk)
    deadline = datetime.fromisoformat(play.game_line(game, seat)["deadline"])
    left = deadline - timezone.now()
    assert timedelta(seconds=50) < left <= timedelta(seconds=60)
