"""Every game says what its shuffle dealt (the "verify the deal" page shows it): the hands,
the face-up tile or card and the stock in drawing order are exactly the game's whole set, and
the same seed always deals the same."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import GAMES
from games.engine.core.series import game_seed, start_series


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_is_the_whole_set_once(key, players):
    game = GAMES[key]
    rules = game.presets[game.default_preset]
    state = game.new_game(rules, players, "deal-check", dealer=1)
    deal = game.deal_of(state)
    assert len(deal.hands) == players
    assert deal.dealer == 1
    everything = Counter(c for hand in deal.hands for c in hand)
    everything.update(deal.face_up)
    everything.update(deal.stock)
    view = game.player_view(state, 0)
    # Seat 0's own hand, as its view shows it, is the first hand of the deal.
    own = view.get("rack") or view.get("hand")
    assert Counter(str(c) for c in own) == Counter(deal.hands[0])
    again = game.deal_of(game.new_game(rules, players, "deal-check", dealer=1))
    assert again == deal
    other = game.deal_of(game.new_game(rules, players, "deal-check-2", dealer=1))
    assert other != deal
    assert sum(everything.values()) == sum(len(h) for h in deal.hands) + len(deal.face_up) + len(
        deal.stock
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_the_next_draw_is_the_first_tile_of_the_stock(key):
    game = GAMES[key]
    rules = game.presets[game.default_preset]
    state = game.new_game(rules, 2, "draw-order", dealer=0)
    deal = game.deal_of(state)
    # Play until a seat draws from the stock; what it drew is the stock's first tile.
    seat = next(iter(game.to_act(state)))
    for _ in range(20):
        if "draw" in game.legal(state, seat):
            before = Counter(game.player_view(state, seat).get("rack") or [])
            before = before or Counter(game.player_view(state, seat).get("hand") or [])
            state, _ = game.apply(state, seat, game.parse_action("draw"))
            after = Counter(game.player_view(state, seat).get("rack") or [])
            after = after or Counter(game.player_view(state, seat).get("hand") or [])
            assert list((after - before).elements()) == [deal.stock[0]]
            return
        state, _ = game.apply(state, seat, game.timeout_action(state, seat))
        seat = next(iter(game.to_act(state)))
    pytest.fail("no seat drew from the stock")


def test_a_game_seed_does_not_show_the_series_seed():
    series = start_series(GAMES["remi"], GAMES["remi"].presets["remi"], ["a", "b"], "secret")
    first = series.next_game()
    seed = GAMES["remi"].ctx(first).seed
    assert seed == game_seed("secret", 0)
    assert "secret" not in seed and len(seed) == 64
    assert game_seed("secret", 1) != seed
