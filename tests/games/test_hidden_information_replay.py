"""The replay of a finished game, for every game of the registry: each player sees their own
rack or hand at every step — exactly it, never another seat's — and a spectator or a visitor
sees none.  The seed shows on the replay page (the game is over) but never in a step."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client

from games.engine import GAMES
from games.models import Action, Game
from tests.games.test_deal_verification import play_out, seed_of, start

HTMX = {"HTTP_HX_REQUEST": "true"}


def rack_section(html: str) -> str:
    match = re.search(r'<section id="game-rack".*?</section>', html, re.S)
    assert match, "no rack section"
    return match.group(0)


def shown(html: str) -> Counter[str]:
    """The tiles or cards drawn in the rack section (tiles by data-tile, cards by data-card)."""
    return Counter(re.findall(r'data-(?:tile|card)="([^"]+)"', rack_section(html)))


def own_hand(engine, state, seat: int) -> Counter[str]:
    view = engine.player_view(state, seat)
    held = view.get("rack") if view.get("rack") is not None else view.get("hand")
    return Counter(str(code) for code in held or [])


@pytest.mark.parametrize("key", list(GAMES))
def test_each_player_replays_with_their_own_rack_and_a_spectator_with_none(alice, bob, carol, key):
    game = play_out(start(alice, bob, key))
    game = Game.objects.select_related("table").get(pk=game.pk)
    engine = GAMES[key]
    final = engine.load(game.state)
    ctx = engine.ctx(final)
    moves = list(
        Action.objects.filter(game=game).order_by("version").values_list("seat", "notation")
    )
    players = {0: Client(), 1: Client()}
    players[0].force_login(alice)
    players[1].force_login(bob)
    watcher = Client()
    watcher.force_login(carol)
    visitor = Client()
    seed = seed_of(game)
    url = f"/games/{game.pk}/replay/"

    state = engine.new_game(engine.rules_of(final), list(ctx.seats), ctx.seed, dealer=ctx.dealer)
    steps = sorted({0, 1, 2, len(moves) // 2, len(moves) - 1, len(moves)})
    checked = 0
    for step in range(len(moves) + 1):
        if step:
            state, _ = engine.apply(state, *moves[step - 1])
        if step not in steps:
            continue
        over = engine.is_over(state)
        for seat, client in players.items():
            html = client.get(url, {"step": step}, **HTMX).content.decode()
            expected = Counter() if over else own_hand(engine, state, seat)
            assert shown(html) == expected, (key, step, seat)
            # Exactly the own rack: a tile of the other rack shows only as far as the viewer
            # holds its twin (two sets of tiles), and never as the other's rack.
            assert over or expected != own_hand(engine, state, 1 - seat)
            assert seed not in html  # a step is swapped into the page, never the seed
            checked += 1
        for client in (watcher, visitor):
            html = client.get(url, {"step": step}, **HTMX).content.decode()
            assert shown(html) == Counter() and "hidden" in rack_section(html)
            whole = client.get(url, {"step": step}).content.decode()
            assert shown(whole) == Counter()
            assert seed in whole  # the game is over: its replay page reveals the seed
    assert checked == 2 * len(steps)
