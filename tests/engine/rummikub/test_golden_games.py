"""Recorded games replay to the same end.  A rule change that breaks this must bump
``RummikubGame.engine_version`` (stored with every game) and re-record ``data/``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.rummikub import GAME, PRESETS

RECORDS = json.loads((Path(__file__).parent / "data" / "golden_games.json").read_text())


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['preset']}-{r['seed']}")
def test_recorded_game_replays_to_the_same_end(record):
    assert record["engine_version"] == GAME.engine_version
    state = GAME.replay(
        PRESETS[record["preset"]],
        record["seats"],
        record["seed"],
        [(seat, action) for seat, action in record["actions"]],
    )
    assert GAME.outcome(state).to_dict() == record["outcome"]
    assert [m.notation() for m in state.table] == record["table"]
