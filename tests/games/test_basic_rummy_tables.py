"""Basic Rummy around its game page: the new-table form with its presets and options, moves
posted from the page (cards picked in the hand), sentences for refusals and the log, and the
replay of a whole hand played through ``services.play``."""

from __future__ import annotations

import random
import re

from django.core.management import call_command
from django.urls import reverse

from games.engine.basic_rummy import GAME
from games.engine.basic_rummy.scenario import position
from games.models import Game, Seat, Table
from games.play import services
from games.tables import lifecycle

OPTIONS = {
    "game_type": "basic-rummy",
    "preset": "basic-rummy",
    "jokers": "0",
    "aces": "low",
    "stock_empty": "shuffle",
    "rummy_doubles": "on",
    "long_melds": "on",
    "ace_points": "1",
    "out_bonus": "0",
    "target_score": "",
    "seat_count": "3",
    "bots": "1",
    "bot_level": "normal",
    "pace": "live",
    "move_seconds": "120",
    "visibility": "public",
}


def test_choosing_basic_rummy_shows_its_presets_and_options(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:table_create"), {"game_type": "basic-rummy"}).content.decode()
    presets = re.search(r'<select name="preset".*?</select>', html, re.S)
    assert presets is not None
    assert 'value="block-rummy"' in presets.group(0) and 'value="round-the-corner"' in html
    assert 'name="deep_pickup"' in html and 'name="final_discard"' in html
    assert 'name="joker_replacement"' not in html


def test_creating_a_basic_rummy_table_keeps_its_options_and_shows_them(client, alice):
    client.force_login(alice)
    data = {**OPTIONS, "preset": "block-rummy", "stock_empty": "block", "final_discard": "on"}
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get()
    assert table.game_type == "basic-rummy"
    assert table.rules["stock_empty"] == "block" and table.rules["final_discard"] is True
    assert table.rules["target_score"] is None
    card = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Final discard" in card


def _two_player_game(alice, bob):
    table = lifecycle.create_table(alice, game_type="basic-rummy", seat_count=2)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def test_moves_from_the_page_and_their_sentences(client, alice, bob):
    game = _two_player_game(alice, bob)
    state = GAME.load(game.state)
    mover = alice if state.turn == 0 else bob
    client.force_login(mover)
    url = reverse("games:game", args=[game.pk])
    page = client.get(url).content.decode()
    hand = [str(c) for c in state.hands[state.turn]]
    # Each card of the hand is a checkbox a screen reader names.
    assert page.count('name="cards"') == len(hand)
    assert re.search(r'class="visually-hidden">\w+ of (spades|hearts|diamonds|clubs)<', page)
    act = reverse("games:game_act", args=[game.pk])
    refused = client.post(
        act, {"version": 0, "verb": "discard", "cards": [hand[0]]}, HTTP_HX_REQUEST="true"
    )
    assert "Draw first" in refused.content.decode()
    client.post(act, {"version": 0, "verb": "draw"}, HTTP_HX_REQUEST="true")
    after = Game.objects.get(pk=game.pk)
    assert after.version == 1
    html = client.get(url).content.decode()
    assert "You drew the " in html and "from the stock" in html
    # The other player reads that a card was drawn, not which.
    client.force_login(bob if mover == alice else alice)
    other = client.get(url).content.decode()
    assert "drew from the stock" in other and "You drew" not in other


def test_the_rummy_500_pickup_from_the_page(client, alice, bob):
    table = lifecycle.create_table(
        alice, game_type="basic-rummy", preset="rummy-500-pickup", seat_count=2
    )
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    # Seat 0 to draw: 5H deep in the pile, 9C and KD above it; 6H 7H in hand.
    rules = GAME.load(game.state).rules
    state = position(["6H 7H 2S 9D", "3C 4C 8S"], rules=rules, stock="JD QD", discard="5H 9C KD")
    state.seats = list(GAME.load(game.state).seats)
    Game.objects.filter(pk=game.pk).update(state=GAME.dump(state), to_act=[0])
    client.force_login(Seat.objects.get(table=table, position=0).user)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    # Every card of the spread pile can be picked, by a click, a tap or the keyboard.
    assert page.count('name="pile"') == 3 and 'id="pickup-button"' in page
    act = reverse("games:game_act", args=[game.pk])

    refused = client.post(
        act, {"version": 0, "verb": "pickup", "pile": ["5H"]}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Pick the cards of your hand it makes a new meld with." in refused
    assert Game.objects.get(pk=game.pk).version == 0  # nothing changed

    client.post(
        act,
        {"version": 0, "verb": "pickup", "pile": ["5H"], "cards": ["6H", "7H"]},
        HTTP_HX_REQUEST="true",
    )
    after = GAME.load(Game.objects.get(pk=game.pk).state)
    assert [m.notation() for m in after.table] == ["5H 6H 7H"]
    # 9C and KD came along with the 5H.
    assert sorted(str(c) for c in after.hands[0]) == ["2S", "9C", "9D", "KD"]
    assert after.discard == []


def test_a_whole_hand_replays_move_by_move(client, alice, bob, carol):
    game = _two_player_game(alice, bob)
    rng = random.Random("replay")
    for _ in range(2000):
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
    assert "The deal:" in page and "Hands at the end" in page
    for step in (1, finished.version // 2, finished.version):
        html = client.get(
            reverse("games:game_replay", args=[game.pk]), {"step": step}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert f"Move {step} of {finished.version}" in html
        assert "can no longer be replayed" not in html
    final = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Stalemate" in final or "wins the hand" in final


def test_the_arena_plays_basic_rummy(capsys):
    call_command("arena", "--game", "basic-rummy", "--games", "4", "--seed", "t")
    out = capsys.readouterr().out
    assert "basic-rummy" in out
