"""Thai Rummy around its game page: the new-table form with its presets and options, moves
posted from the page (cards picked in the hand and in the discard pile), sentences for
refusals and the log, the replay of a whole hand played through ``services.play``, a series
dealt by the loser, and the arena."""

from __future__ import annotations

import random
import re

from django.core.management import call_command
from django.urls import reverse

from games.engine.thai_rummy import GAME
from games.engine.thai_rummy.scenario import position
from games.models import Game, Seat, Table
from games.play import services
from games.tables import lifecycle

OPTIONS = {
    "game_type": "thai-rummy",
    "preset": "thai-rummy",
    "double_out_bonus": "on",
    "layoff_shows": "on",
    "target_score": "500",
    "seat_count": "2",
    "bots": "1",
    "bot_level": "normal",
    "pace": "live",
    "move_seconds": "120",
    "visibility": "public",
}


def test_choosing_thai_rummy_shows_its_presets_and_options(client, alice):
    client.force_login(alice)
    html = client.get(reverse("games:table_create"), {"game_type": "thai-rummy"}).content.decode()
    presets = re.search(r'<select name="preset".*?</select>', html, re.S)
    assert presets is not None
    assert 'value="bonus-not-doubled"' in presets.group(0)
    assert 'name="double_out_bonus"' in html and 'name="layoff_shows"' in html
    assert 'name="deep_pickup"' not in html
    seats = re.search(r'<select name="seat_count".*?</select>', html, re.S)
    assert seats is not None
    assert re.findall(r'value="(\d)"', seats.group(0)) == ["2", "3", "4"]


def test_creating_a_thai_rummy_table_keeps_its_options_and_shows_them(client, alice):
    client.force_login(alice)
    data = {**OPTIONS, "preset": "bonus-not-doubled"}
    del data["double_out_bonus"]  # an unticked box is not posted
    response = client.post(reverse("games:table_create"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get()
    assert table.game_type == "thai-rummy"
    assert table.rules["double_out_bonus"] is False and table.rules["target_score"] == 500
    card = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "The 50 for going out is doubled too" in card


def _two_player_game(alice, bob):
    table = lifecycle.create_table(alice, game_type="thai-rummy", seat_count=2)
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
    assert len(hand) == 13
    # Each card of the hand is a checkbox a screen reader names; so is the pile's card.
    assert page.count('name="cards"') == 13
    assert page.count('name="pile"') == 1
    assert re.search(r'class="visually-hidden">\w+ of (spades|hearts|diamonds|clubs)<', page)
    act = reverse("games:game_act", args=[game.pk])
    refused = client.post(
        act, {"version": 0, "verb": "discard", "cards": [hand[0]]}, HTTP_HX_REQUEST="true"
    )
    assert "Start your turn" in refused.content.decode()
    top = str(state.discard[-1])
    refused = client.post(
        act,
        {"version": 0, "verb": "take", "pile": [top], "cards": hand[:1]},
        HTTP_HX_REQUEST="true",
    )
    assert Game.objects.get(pk=game.pk).version == 0
    assert "meld" in refused.content.decode()
    client.post(act, {"version": 0, "verb": "draw"}, HTTP_HX_REQUEST="true")
    assert Game.objects.get(pk=game.pk).version == 1
    html = client.get(url).content.decode()
    assert "You drew the " in html and "from the stock" in html
    client.force_login(bob if mover == alice else alice)
    other = client.get(url).content.decode()
    assert "drew from the stock" in other and "You drew" not in other


def test_taking_from_the_pile_with_the_picked_cards(client, alice, bob):
    game = _two_player_game(alice, bob)
    # Seat 0 to play: 5H deep in the pile, 9C and KD above it; 6H 7H in hand.
    state = position(["6H 7H 2S 9D", "3C 4C 8S"], stock="JD QD", discard="5H 9C KD", turn=0)
    state.seats = list(GAME.load(game.state).seats)
    Game.objects.filter(pk=game.pk).update(state=GAME.dump(state), to_act=[0])
    mover = Seat.objects.get(table_id=game.table_id, position=0).user
    client.force_login(mover)
    act = reverse("games:game_act", args=[game.pk])
    client.post(
        act,
        {"version": 0, "verb": "take", "pile": ["5H"], "cards": ["6H", "7H"]},
        HTTP_HX_REQUEST="true",
    )
    after = GAME.load(Game.objects.get(pk=game.pk).state)
    assert [m.notation() for m in after.table] == ["5H 6H 7H"]
    # 9C and KD came along with the 5H.
    assert sorted(str(c) for c in after.hands[0]) == ["2S", "9C", "9D", "KD"]
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "took 3 cards from the discard pile" in page
    # One entry for the move, its lines in the order they happened: the take, then the meld
    # the taken card went into (issue 30, fault 9: it read backwards).
    entry = page[page.index('<li value="1"') :]
    entry = entry[: entry.index("</li>")]
    assert entry.index("took 3 cards") < entry.index("melded five of hearts")


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
    final = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "went out and scores" in final or "everyone passed" in final
    # The loser deals the next hand.
    table = Table.objects.get(pk=finished.table_id)
    end = GAME.load(finished.state)
    series = services.load_series(table)
    assert series is not None
    assert series.dealer == GAME.next_dealer(end, end.dealer, 2)
    if end.result.winner is not None:
        assert series.dealer == 1 - end.result.winner


def test_the_arena_plays_thai_rummy(capsys):
    call_command("arena", "--game", "thai-rummy", "--games", "4", "--seed", "t")
    out = capsys.readouterr().out
    assert "thai-rummy" in out
