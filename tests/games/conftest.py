"""Games started for tests: Alice (seat 0) and Bob (seat 1), without doublas, so play begins
at once with the opening discard."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game


def two_player_game(alice, bob, **table_options) -> Game:
    table = services.create_table(alice, seat_count=2, options={"doubla": False}, **table_options)
    services.join_table(table, bob)
    return services.start_table(table, alice)


@pytest.fixture
def started(alice, bob) -> Game:
    return two_player_game(alice, bob)


@pytest.fixture
def private_game(alice, bob) -> Game:
    return two_player_game(alice, bob, is_public=False)
