"""Bot accounts, tokens and tables for the Bot API's tests."""

from __future__ import annotations

from typing import Any

from bot_api import tokens
from games.models import Game, Table
from games.play import services
from games.tables import lifecycle
from tests.conftest import make_user


def bot_account(username: str = "robo") -> tuple[Any, str]:
    """A bot account and a fresh token's key."""
    user = make_user(username, is_bot=True)
    _token, key = tokens.create_token(user, "tests")
    return user, key


def bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def game_with_bot(owner, bot, *, game_type: str = "remi", **choices: Any) -> Game:
    """A started two-seat table: ``owner`` at seat 0, the bot account at seat 1."""
    options = {"doubla": False} if game_type == "remi" else None
    table = lifecycle.create_table(
        owner, game_type=game_type, seat_count=2, options=options, **choices
    )
    lifecycle.join_table(table, bot)
    return lifecycle.start_table(table, owner)


def open_table(owner, **choices: Any) -> Table:
    return lifecycle.create_table(owner, seat_count=2, **choices)


def state_of(game: Game) -> Any:
    return services.game_of(game.table).load(game.state)


def play_for(game: Game, seat: int, rng: Any) -> None:
    """One move for ``seat`` chosen from its own view, through the service people's moves
    use (the engine's always-legal timeout move when a choice is refused)."""
    engine = services.game_of(game.table)
    state = engine.load(game.state)
    action = engine.choose(engine.player_view(state, seat), "easy", rng)
    try:
        services.play(game.pk, seat, action, game.version)
    except ValueError:
        services.play(game.pk, seat, engine.timeout_action(state, seat), game.version)


def unheld_tile_discard(view: dict[str, Any]) -> str:
    """A discard the rules refuse: a tile code of which the seat holds no copy."""
    held = set(view["rack"])
    for colour in "RBYK":
        for number in range(1, 14):
            if f"{colour}{number}" not in held:
                return f"discard {colour}{number}"
    raise AssertionError("a rack holds every tile")
