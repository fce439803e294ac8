"""Seeded games must come out the same in every process: random play and bots may not depend
on the order Python happens to iterate a set in (which follows PYTHONHASHSEED)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import random
from games.arena import play_bot_game
from games.engine import register_games
from games.engine.remi import GAME, REMI
from games.engine.remi.randomplay import play_random_game
register_games([GAME])  # no site here to register its games (games/plugins.py)
for n in range(4):
    print(play_random_game(REMI, 4, f"det-{n}", random.Random(n)).actions[-1])
    print(play_bot_game(["hard", "normal", "easy", "easy"], f"det-bots-{n}").scores)
"""


def run_with_hash_seed(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_seeded_games_and_bots_replay_identically_under_any_hash_seed():
    first = run_with_hash_seed("1")
    assert first.count("\n") == 8
    assert run_with_hash_seed("2") == first
    assert run_with_hash_seed("3") == first
