"""Golden game logs: whole games recorded once per game and engine version, replayed by the
tests.  A change that makes a recorded game replay differently changes what stored games
mean, so it must come with a new ``engine_version`` (and new logs for it).

Write the logs for the current versions (only after such a bump, never to make a test pass)::

    .venv/bin/python -m tests.engine.golden_logs
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from games.engine import GAMES, GameEngine

from .playouts import random_playout

GOLDEN = Path(__file__).resolve().parent / "golden"


def path_for(game: GameEngine, version: int | None = None) -> Path:
    return GOLDEN / f"{game.key}-v{version or game.engine_version}.json"


def digest(game: GameEngine, state: Any) -> str:
    """A fingerprint of a whole state (every rack, the stock, the seed's counter)."""
    text = json.dumps(game.dump(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record(game: GameEngine) -> dict[str, Any]:
    games = []
    for seats in range(game.min_seats, game.max_seats + 1):
        seed = f"golden-{game.key}-{seats}"
        playout = random_playout(game, seats, seed)
        outcome = game.outcome(playout.final)
        assert outcome is not None
        games.append(
            {
                "preset": game.default_preset,
                "seats": seats,
                "seed": seed,
                "actions": [[seat, notation] for seat, notation in playout.actions],
                "scores": list(outcome.scores),
                "final": digest(game, playout.final),
            }
        )
    return {"game": game.key, "engine_version": game.engine_version, "games": games}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for game in GAMES.values():
        path = path_for(game)
        path.write_text(json.dumps(record(game), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
