"""A deal anyone can check, for every game of the registry: the commitment is stored and shown
from the deal on, the seed stays on the server while the game is played, and once it is over
the revealed seed checks out against the commitment and the game's moves while any other
seed fails."""

from __future__ import annotations

import hashlib
import random
import re

import pytest
from django.test import Client

from games import deals
from games.engine import GAMES
from games.models import Game
from games.play import services
from games.tables import lifecycle

KEYS = list(GAMES)


def start(alice, bob, key: str, **options) -> Game:
    table = lifecycle.create_table(alice, game_type=key, seat_count=2, **options)
    lifecycle.join_table(table, bob)
    return lifecycle.start_table(table, alice)


def play_out(game: Game, seed: int = 3) -> Game:
    """Random legal moves through services.play until the game is over."""
    engine = GAMES[game.table.game_type]
    rng = random.Random(seed)
    for _ in range(3000):
        game = Game.objects.select_related("table").get(pk=game.pk)
        state = engine.load(game.state)
        if engine.is_over(state):
            return game
        seat = min(engine.to_act(state))
        services.play(game.pk, seat, str(engine.random_action(state, seat, rng)), game.version)
    pytest.fail("the game did not end")


def seed_of(game: Game) -> str:
    engine = GAMES[game.table.game_type]
    return engine.ctx(engine.load(game.state)).seed


def verdict(html: str) -> str:
    match = re.search(r'id="deal-verdict" data-verified="(\w+)"', html)
    assert match, "no verdict on the page"
    return match.group(1)


def check(html: str, name: str) -> str:
    match = re.search(rf'data-check="{name}" data-ok="(\w+)"', html)
    assert match, f"no {name} check on the page"
    return match.group(1)


@pytest.mark.parametrize("key", KEYS)
def test_the_commitment_is_the_hash_of_the_game_id_and_its_seed(alice, bob, key):
    game = start(alice, bob, key)
    seed = seed_of(game)
    expected = hashlib.sha256(f"{game.pk}:{seed}".encode()).hexdigest()
    assert game.deal_commitment == expected
    assert Game.objects.get(pk=game.pk).deal_commitment == expected


@pytest.mark.parametrize("key", KEYS)
def test_the_game_page_shows_the_commitment_and_never_the_seed_while_played(alice, bob, carol, key):
    game = start(alice, bob, key)
    seed = seed_of(game)
    series_seed = game.table.series["seed"]
    viewers = [Client(), Client(), Client(), Client()]  # alice, bob, carol watching, a visitor
    for client, user in zip(viewers, (alice, bob, carol), strict=False):
        client.force_login(user)
    for client in viewers:
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/deal/", f"/tables/{game.table_id}/"):
            html = client.get(url).content.decode()
            assert seed not in html and series_seed not in html, url
        page = client.get(f"/games/{game.pk}/").content.decode()
        assert game.deal_commitment in page
        # Asking the check with the true seed while the game is played checks nothing.
        asked = client.get(f"/games/{game.pk}/deal/", {"seed": seed})
        assert asked.status_code == 200
        html = asked.content.decode()
        assert seed not in html and 'id="deal-verdict"' not in html
        assert game.deal_commitment in html
        assert "still being played" in html
    with pytest.raises(ValueError):
        deals.verify(game, seed)


@pytest.mark.parametrize("key", KEYS)
def test_a_finished_games_deal_verifies_and_a_tampered_seed_fails(alice, bob, carol, key):
    game = play_out(start(alice, bob, key))
    engine = GAMES[key]
    seed = seed_of(game)
    client = Client()
    client.force_login(carol)  # a spectator: the check is for everyone

    result = client.get(f"/games/{game.pk}/").content.decode()
    assert seed in result and "Verify the deal" in result
    replay = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert seed in replay and game.deal_commitment in replay

    page = client.get(f"/games/{game.pk}/deal/", {"seed": seed})
    assert page.status_code == 200
    html = page.content.decode()
    assert verdict(html) == "true"
    assert check(html, "hash") == "true" and check(html, "replay") == "true"
    # The deal shown is the engine's own new_game from the seed: every hand, the face-up
    # tile or card and the stock in drawing order.
    final = engine.load(game.state)
    ctx = engine.ctx(final)
    dealt = engine.deal_of(
        engine.new_game(engine.rules_of(final), list(ctx.seats), seed, dealer=ctx.dealer)
    )
    for hand in dealt.hands:
        assert " ".join(hand) in html
    assert " ".join(dealt.stock) in html
    assert " ".join(dealt.face_up) in html
    # Without a seed the page checks the revealed one.
    assert verdict(client.get(f"/games/{game.pk}/deal/").content.decode()) == "true"

    tampered = seed[:-1] + ("0" if seed[-1] != "0" else "1")
    bad = client.get(f"/games/{game.pk}/deal/", {"seed": tampered}).content.decode()
    assert verdict(bad) == "false"
    assert check(bad, "hash") == "false" and check(bad, "replay") == "false"
    check_of = deals.verify(game, tampered)
    assert not check_of.hash_matches and not check_of.replays and not check_of.verified
    assert deals.verify(game, seed).verified


def test_a_seed_too_long_or_empty_is_refused_clearly(alice, bob):
    game = play_out(start(alice, bob, "remi", options={"doubla": False}))
    client = Client()
    client.force_login(alice)
    for seed in ("x" * (deals.MAX_SEED_LENGTH + 1), "   "):
        response = client.get(f"/games/{game.pk}/deal/", {"seed": seed})
        assert response.status_code == 400
        assert "Type a seed of 1 to" in response.content.decode()


def test_the_explanation_page_says_what_is_checked(client, db):
    html = client.get("/fair-deals/").content.decode()
    assert "SHA-256" in html and "printf" in html


def test_a_game_dealt_before_commitments_says_so(alice, bob):
    game = play_out(start(alice, bob, "remi", options={"doubla": False}))
    Game.objects.filter(pk=game.pk).update(deal_commitment="")
    client = Client()
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/deal/").content.decode()
    assert "before the site kept commitments" in html
    assert verdict(html) == "false" and check(html, "replay") == "true"
