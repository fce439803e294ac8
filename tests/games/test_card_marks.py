"""The card games' pages name what the last turn put on the table (``last-turn``: the cards
of its new melds, the cards it laid off, its discard) and whose turn it was
(``data-last-by``), the same for every viewer, so a reloaded page can ring it
(tests/e2e/test_marks_after_reload.py checks the ring in a browser). Checked against the
engine's own table before and after a turn that melded."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.test import Client

from games.engine import GAMES
from games.models import Game
from games.play import services
from games.presenters import presenter_for
from games.presenters.card_rummy import CardRummyPresentation
from tests.games.test_deal_verification import start

CARD_GAMES = [key for key in GAMES if isinstance(presenter_for(key), CardRummyPresentation)]
TABLE = re.compile(r'<section id="game-table"[^>]*>.*?</section>', re.S)
PILES = re.compile(r'<section id="game-piles"[^>]*>.*?</section>', re.S)
CARD = re.compile(r'<(?:span|label) class="card card-\w+([^"]*)"[^>]*data-card="(\w+)"')


def table_cards(view) -> Counter[str]:
    return Counter(card for meld in view["table"] for card in meld["cards"])


def a_turn_that_melds(game: Game) -> tuple[int, Counter[str], str]:
    """Random legal moves until a whole turn laid cards on the table and ended on a discard:
    the seat that played it, the cards it added to the table and its discard."""
    engine = GAMES[game.table.game_type]
    rng = random.Random(11)
    for _ in range(3000):
        state = engine.load(Game.objects.get(pk=game.pk).state)
        assert not engine.is_over(state), "the game ended before a turn melded"
        seat = min(engine.to_act(state))
        before = engine.player_view(state, None)
        while not engine.is_over(state) and min(engine.to_act(state)) == seat:
            version = Game.objects.get(pk=game.pk).version
            services.play(game.pk, seat, str(engine.random_action(state, seat, rng)), version)
            state = engine.load(Game.objects.get(pk=game.pk).state)
        after = engine.player_view(state, None)
        added = table_cards(after) - table_cards(before)
        pile = after.get("discard")
        discarded = pile[-1] if isinstance(pile, list) and pile else after.get("discard_top")
        if added and not engine.is_over(state) and discarded:
            return seat, added, discarded
    pytest.fail("no turn melded")


@pytest.mark.parametrize("key", CARD_GAMES)
def test_the_page_names_what_the_last_turn_put_down(alice, bob, carol, key):
    game = start(alice, bob, key)
    seat, added, discarded = a_turn_that_melds(game)
    pages = {}
    for user in (alice, bob, carol):
        client = Client()
        client.force_login(user)
        pages[user.username] = client.get(f"/games/{game.pk}/").content.decode()
    for name, html in pages.items():
        table, piles = TABLE.search(html)[0], PILES.search(html)[0]
        assert f'data-last-by="{seat}"' in table, name
        marked = Counter(code for classes, code in CARD.findall(table) if "last-turn" in classes)
        assert marked == added, f"{name}: marked {marked}, the turn added {added}"
        in_pile = [(classes, code) for classes, code in CARD.findall(piles)]
        assert in_pile[-1][1] == discarded and "last-turn" in in_pile[-1][0], name
        assert all("last-turn" not in classes for classes, _ in in_pile[:-1]), name
