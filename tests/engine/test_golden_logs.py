"""Recorded games replay exactly: the same seed and actions give the same final state and
scores, for every game at its current engine version (see ``golden_logs``)."""

from __future__ import annotations

import json
import re

import pytest

from games.engine import GAMES

from .golden_logs import GOLDEN, digest, path_for


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_has_golden_logs_for_its_engine_version(key: str) -> None:
    game = GAMES[key]
    data = json.loads(path_for(game).read_text(encoding="utf-8"))
    assert (data["game"], data["engine_version"]) == (key, game.engine_version)
    assert {entry["seats"] for entry in data["games"]} == set(
        range(game.min_seats, game.max_seats + 1)
    )


@pytest.mark.parametrize("key", list(GAMES))
def test_golden_logs_replay_to_the_same_end(key: str) -> None:
    game = GAMES[key]
    data = json.loads(path_for(game).read_text(encoding="utf-8"))
    for entry in data["games"]:
        rules = game.presets[entry["preset"]]
        actions = [(seat, notation) for seat, notation in entry["actions"]]
        final = game.replay(rules, entry["seats"], entry["seed"], actions)
        outcome = game.outcome(final)
        assert outcome is not None, entry["seed"]
        assert list(outcome.scores) == entry["scores"], entry["seed"]
        assert digest(game, final) == entry["final"], entry["seed"]


def test_golden_logs_are_named_after_registered_games() -> None:
    for path in GOLDEN.glob("*.json"):
        key, _, version = path.stem.rpartition("-v")
        assert key in GAMES and re.fullmatch(r"[0-9]+", version), path.name
