"""What a seat sees, and which events tell whom what."""

from __future__ import annotations

import json
import random

from games.engine.rummikub import GAME, RUMMIKUB, apply, new_game, player_view
from games.engine.rummikub.scenario import position


def test_a_seat_sees_its_rack_the_table_and_counts_only():
    state = position(
        racks=["R1 R2 R3 K9", "Y5 Y6", "B7"],
        table=["K1 K2 K3"],
        stock="Y1 Y2 Y3 Y4",
        melded=[1],
    )
    view = player_view(state, 0)
    assert view["rack"] == ["R1", "R2", "R3", "K9"]
    assert view["rack_counts"] == [4, 2, 1]
    assert view["stock_count"] == 4
    assert [m["notation"] for m in view["table"]] == ["K1 K2 K3"]
    assert view["table"][0]["points"] == 6
    assert view["melded"] == [False, True, False]
    assert view["can"] == ["draw", "play"]
    text = json.dumps(view)
    for secret in ("Y5", "Y6", "B7", "Y1", "Y4", "scenario"):
        assert secret not in text
    assert player_view(state, 1)["can"] == []
    spectator = player_view(state, None)
    assert spectator["rack"] is None and spectator["can"] == []


def test_racks_are_shown_once_the_game_is_over():
    state = position(racks=["R1 R2 R3", "Y5 Y6"], melded=[0])
    state, _ = apply(state, 0, "play R1 R2 R3")
    assert player_view(state, None)["final_racks"] == [[], ["Y5", "Y6"]]
    assert player_view(state, 1)["result"]["scores"] == [11, -11]


def test_a_view_never_changes_when_hidden_tiles_are_redealt():
    state = new_game(RUMMIKUB, 4, "secret-seed-123")
    rng = random.Random(5)
    for seat in (None, 0, 1, 2, 3):
        other = GAME.resample_hidden(state, seat, rng)
        assert other.to_dict() != state.to_dict()
        assert player_view(other, seat) == player_view(state, seat)


def test_penalty_tiles_are_seen_by_the_penalised_player_only():
    state = position(racks=["R1 R2", "K5"], table=["K1 K2 K3"], stock="Y1 Y2 Y3", melded=[0])
    _, events = apply(state, 0, "play K1 K2 K3 | R1 R2")
    (penalty,) = events
    assert penalty.to_dict(0)["secret"] == {"tiles": ["Y3", "Y2", "Y1"]}
    assert "secret" not in penalty.to_dict(1)
    assert penalty.to_dict(1)["params"]["count"] == 3
