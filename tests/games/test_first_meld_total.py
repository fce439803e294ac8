"""Issue 13: while composing their first melds a player sees the running total ("First
melds: 45 / 50"), counted by the engine on the server for the page's selection."""

from __future__ import annotations

import re

from django.urls import reverse

from games.engine.remi import scenario
from games.engine.remi.rules import REMI
from games.models import Game
from games.tables import lifecycle


def alice_to_meld(alice, bob, *, melded: bool) -> Game:
    """Alice (seat 0) has drawn and may meld; whether she made her first melds is given."""
    table = lifecycle.create_table(alice, seat_count=2, options={"doubla": False})
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    state = scenario.position(
        racks=["R10 R11 R12 K5 B5 Y5 K9 Y9 B9 Y2", "K1 K2 K3 B4"],
        rules=REMI.with_options(doubla=False),
        wall="B7 B8 B10",
        melds=[("Y7 Y8 Y9", 0)] if melded else [],
        melded=[0] if melded else [],
        turn=0,
        phase="play",
        names=["Alice", "bob"],
    )
    Game.objects.filter(pk=game.pk).update(state=state.to_dict(), to_act=[0])
    return game


def total_url(game: Game) -> str:
    return reverse("games:game_meld_total", args=[game.pk])


def test_the_page_starts_the_count_at_nothing_of_the_minimum(client, alice, bob):
    game = alice_to_meld(alice, bob, melded=False)
    client.force_login(alice)
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'id="meld-total"' in html
    assert "First melds: 0 / 50" in html


def test_the_count_follows_the_selection(client, alice, bob):
    game = alice_to_meld(alice, bob, melded=False)
    before = Game.objects.get(pk=game.pk).state
    client.force_login(alice)
    short = client.get(total_url(game), {"tiles": "R10 R11 R12"})
    assert short.status_code == 200
    assert "First melds: 30 / 50" in short.content.decode()
    assert "enough" not in short.content.decode()
    building = client.get(total_url(game), {"tiles": "R10 R11 R12 | K5 B5 Y5 | K9"})
    assert "First melds: 45 / 50" in building.content.decode()
    enough = client.get(total_url(game), {"tiles": "R10 R11 R12 | K5 B5 Y5 | K9 Y9 B9"})
    assert "First melds: 60 / 50" in enough.content.decode()
    assert 'class="meld-total enough"' in enough.content.decode()
    assert Game.objects.get(pk=game.pk).state == before  # counting changes nothing


def test_no_count_once_melded_for_spectators_or_too_long(client, alice, bob, carol):
    game = alice_to_meld(alice, bob, melded=True)
    client.force_login(alice)
    assert 'id="meld-total"' not in client.get(game.get_absolute_url()).content.decode()
    # A count asked for just before the meld went in is answered by putting the count away.
    late = client.get(total_url(game), {"tiles": "R10 R11 R12"})
    assert late.status_code == 200
    assert re.search(r'<output id="meld-total"[^>]* hidden></output>', late.content.decode())

    fresh = alice_to_meld(alice, bob, melded=False)
    assert client.get(total_url(fresh), {"tiles": "R1 " * 200}).status_code == 400
    client.force_login(carol)
    assert client.get(total_url(fresh), {"tiles": "R10 R11 R12"}).status_code == 403
