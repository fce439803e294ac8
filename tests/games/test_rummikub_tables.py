"""The tile rummy around its game page: the new-table form with its presets and options, the
table cards, and the replay of a whole game played through ``services.play``."""

from __future__ import annotations

import random
import re

from django.urls import reverse

from games.engine.rummikub import GAME
from games.models import Game, Table
from games.play import services
from games.tables import lifecycle

OPTIONS = {
    "game_type": "rummikub",
    "preset": "rummikub",
    "first_meld_minimum": "30",
    "joker_replacement": "free",
    "starting_player": "highest-draw",
    "stock_exhausted": "play-on",
    "series_games": "1",
    "target_score": "",
    "seat_count": "3",
    "bots": "1",
    "bot_level": "normal",
    "pace": "live",
    "move_seconds": "120",
    "visibility": "public",
}


def test_choosing_the_tile_rummy_shows_its_presets_and_options(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:table_create"), {"game_type": "rummikub"}).content.decode()
    presets = re.search(r'<select name="preset".*?</select>', html, re.S)
    assert presets is not None
    assert 'value="rrrummy"' in presets.group(0) and 'value="tiles-50"' in presets.group(0)
    assert 'name="joker_replacement"' in html and 'name="joker_locks_meld"' in html
    assert 'name="doubla"' not in html  # Remi's options stay with Remi


def test_a_preset_fills_in_its_options(client, alice):
    client.force_login(alice)
    html = client.get(
        reverse("games:table_create"),
        {"game_type": "rummikub", "preset": "tiles-50"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert re.search(r'value="50"[^>]*checked|checked[^>]*value="50"', html)
    assert re.search(r'name="freed_joker_own_meld"[^>]*checked', html)


def test_creating_a_tile_rummy_table_keeps_its_options_and_shows_them(client, alice):
    client.force_login(alice)
    data = {
        **OPTIONS,
        "preset": "dutch-rummy",
        "joker_replacement": "matching-from-rack",
        "joker_locks_meld": "on",
        "stock_exhausted": "end-now",
    }
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.game_type == "rummikub"
    assert table.rules["joker_locks_meld"] is True
    assert table.rules["stock_exhausted"] == "end-now"
    card = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Melds with a joker are locked" in card
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "the game ends; the lowest rack wins" in lobby  # where it differs from its preset


def test_a_whole_game_replays_move_by_move(client, alice, bob, carol):
    table = lifecycle.create_table(alice, game_type="rummikub", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    rng = random.Random("replay")
    for _ in range(400):
        current = Game.objects.get(pk=game.pk)
        state = GAME.load(current.state)
        if state.over:
            break
        action = GAME.random_action(state, state.turn, rng)
        services.play(game.pk, state.turn, action, current.version)
    finished = Game.objects.get(pk=game.pk)
    assert finished.status == Game.Status.FINISHED
    client.force_login(carol)
    page = client.get(reverse("games:game_replay", args=[game.pk])).content.decode()
    assert "The deal:" in page and "Racks at the end" in page
    for step in (1, finished.version // 2, finished.version):
        html = client.get(
            reverse("games:game_replay", args=[game.pk]), {"step": step}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert f"Move {step} of {finished.version}" in html
        assert "can no longer be replayed" not in html
    assert "Game over:" in html
    # The game page shows the result to everyone.
    assert "Game over:" in client.get(reverse("games:game", args=[game.pk])).content.decode()
