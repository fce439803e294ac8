"""Properties over many random complete games (2-4 players, random rule options, random
play mixing bot moves, draws, timeouts and rough rearrangements): every tile accounted for,
every meld on the table valid after every turn, table tiles never leave it, apply never
mutates its input, views keep secrets, the state survives JSON, a replay from the log is the
same game, and the scores match an independent computation.

1000 games as CI runs it; ``TEST_SCALE`` (tests/scale.py) multiplies the count.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.rummikub import GAME, Rules, apply, classify, player_view, replay
from games.engine.rummikub.randomplay import random_action
from games.engine.rummikub.rules import JOKER_REPLACEMENTS, STARTING_PLAYERS, STOCK_EXHAUSTED
from games.engine.rummikub.state import State
from games.engine.tiles import full_set
from tests.scale import examples

GAMES = examples(500)
ALL_TILES = Counter(full_set())

rule_options = st.builds(
    Rules,
    first_meld_minimum=st.sampled_from([30, 50]),
    starting_player=st.sampled_from(STARTING_PLAYERS),
    joker_replacement=st.sampled_from(JOKER_REPLACEMENTS),
    joker_locks_meld=st.booleans(),
    freed_joker_own_meld=st.booleans(),
    penalty_tiles=st.sampled_from([1, 3]),
    joker_value=st.sampled_from([30, 50]),
    rack_size=st.sampled_from([14, 10]),
    stock_exhausted=st.sampled_from(STOCK_EXHAUSTED),
)


def table_tiles(state: State) -> Counter:
    return Counter(t for m in state.table for t in m.tiles)


def assert_tiles_conserved(state: State) -> None:
    counted = Counter(state.stock)
    for rack in state.racks:
        counted.update(rack)
    for meld in state.table:
        counted.update(meld.tiles)
    assert counted == ALL_TILES


def assert_table_valid(state: State, checked: set) -> None:
    """Every meld is read again from its tiles and readings (``checked``: melds already
    read, as most melds stay as they were from turn to turn)."""
    for meld in state.table:
        if meld in checked:
            continue
        checked.add(meld)
        again = classify(meld.tiles, state.rules, list(meld.jokers_as))
        assert (again.kind, again.stands_for) == (meld.kind, meld.stands_for)


def expected_scores(state: State) -> list[int]:
    """Document 004's scoring, worked out here apart from the engine's scoring module."""
    totals = [
        sum(state.rules.joker_value if t.colour == "J" else t.number for t in rack)
        for rack in state.racks
    ]
    empty = [s for s, rack in enumerate(state.racks) if not rack]
    if empty:
        winner = empty[0]
    else:
        low = min(totals)
        winner = totals.index(low) if totals.count(low) == 1 else None
    return [sum(totals) - totals[s] if s == winner else -totals[s] for s in range(len(totals))]


def assert_view_keeps_secrets(state: State, rng: random.Random) -> None:
    if state.over:
        return  # the racks are turned over at the end
    for seat in (None, rng.randrange(state.players)):
        view = player_view(state, seat)
        assert state.seed not in json.dumps(view)
        other = GAME.resample_hidden(state, seat, rng)
        assert player_view(other, seat) == view


def play_and_check(rules: Rules, players: int, seed: str, rng: random.Random) -> None:
    state = GAME.new_game(rules, players, seed)
    start = state
    log: list[tuple[int, str]] = []
    checked: set = set()
    assert_tiles_conserved(state)
    while not state.over:
        assert len(log) < 2000, "the game did not end"
        seat = state.turn
        action = random_action(state, seat, rng)
        before = state.copy()
        new, events = apply(state, seat, action)
        assert state == before, "apply mutated its input"
        # Tiles on the table stay there; a penalty or a draw leaves the table as it was.
        assert not table_tiles(state) - table_tiles(new)
        if any(e.code in ("penalty", "drew", "passed") for e in events):
            assert new.table == state.table
        # A drawn tile is shown to its drawer only.
        for event in events:
            for viewer in (None, *range(players)):
                assert ("secret" in event.to_dict(viewer)) == (
                    viewer == seat and bool(event.secret)
                )
        state = new
        log.append((seat, str(action)))
        placed = sum(len(m.tiles) for m in state.table)
        assert sum(map(len, state.racks)) + len(state.stock) + placed == 106
        assert_table_valid(state, checked)
        # The costlier checks every few turns: every turn would double the run time for
        # little more (each still sees thousands of positions over the run).
        if len(log) % 2 == 0:
            assert_tiles_conserved(state)
        if len(log) % 6 == 0:
            assert_view_keeps_secrets(state, rng)
            data = json.loads(json.dumps(state.to_dict()))
            assert State.from_dict(data).to_dict() == data
    assert_tiles_conserved(state)
    data = json.loads(json.dumps(state.to_dict()))
    assert State.from_dict(data).to_dict() == data
    again = replay(seed, rules, start.seats, log)
    assert again.to_dict() == state.to_dict()
    assert list(state.result.scores) == expected_scores(state)
    assert sum(state.result.scores) >= -sum(state.result.rack_totals)
    if state.result.reason == "out":
        assert state.racks[state.result.winner] == []


@settings(
    max_examples=GAMES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rules=rule_options,
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**48),
    play_seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_complete_games_keep_every_invariant(rules, players, seed, play_seed):
    play_and_check(rules, players, f"rummikub-{seed:015d}", random.Random(play_seed))
