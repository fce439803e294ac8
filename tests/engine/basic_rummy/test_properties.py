"""Properties over many random complete hands (2-6 players, random rule options, random play
mixing the bots' moves with random takes, melds, lay-offs and discards): every card
accounted for, every meld on the table valid after every action, apply never mutates its
input, views unchanged when the hidden cards are dealt afresh, the state survives JSON, a
replay from the log is the same hand, and the scores match an independent computation.

1000 hands as CI runs it; ``TEST_SCALE`` (tests/scale.py) multiplies the count.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.basic_rummy import GAME, Rules, apply, classify, player_view
from games.engine.basic_rummy.rules import ACES, STOCK_RULES
from games.engine.basic_rummy.state import State
from games.engine.cards import full_deck
from tests.scale import examples

GAMES = examples(500)

rule_options = st.builds(
    Rules,
    jokers=st.sampled_from([0, 2]),
    aces=st.sampled_from(ACES),
    one_meld_per_turn=st.booleans(),
    final_discard=st.booleans(),
    lay_off_after_own_meld=st.booleans(),
    long_melds=st.booleans(),
    stock_empty=st.sampled_from(STOCK_RULES),
    restocks=st.sampled_from([0, 1, 2]),
    deep_pickup=st.booleans(),
    out_from_second_turn=st.booleans(),
    rummy_doubles=st.booleans(),
    ace_points=st.sampled_from([1, 11, 15]),
    out_bonus=st.sampled_from([0, 10]),
)


def assert_cards_conserved(state: State) -> None:
    counted = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands:
        counted.update(hand)
    for meld in state.table:
        counted.update(meld.cards)
    assert counted == Counter(full_deck(state.rules.jokers))


def assert_table_valid(state: State, checked: set) -> None:
    for meld in state.table:
        if meld in checked:
            continue
        checked.add(meld)
        again = classify(meld.cards, state.rules, meld.joker_readings)
        assert (again.kind, again.stands) == (meld.kind, meld.stands)


def expected_scores(state: State) -> list[int]:
    """004's scoring (with 001's options), worked out apart from the engine's scoring."""
    rules = state.rules

    def points(card) -> int:
        if card.suit == "X":
            return 0
        return rules.ace_points if card.rank == 1 else min(card.rank, 10)

    values = [sum(points(c) for c in hand) for hand in state.hands]
    reason = state.result.reason
    if reason == "blocked":
        return [-v for v in values]
    if reason != "out":
        return [0] * len(values)
    winner = next(s for s, hand in enumerate(state.hands) if not hand)
    won = sum(values)
    if state.result.rummy:
        assert rules.rummy_doubles and not state.played_before[winner]
        won *= 2
    return [won + rules.out_bonus if s == winner else 0 for s in range(len(values))]


def assert_view_keeps_secrets(state: State, rng: random.Random) -> None:
    if state.over:
        return  # the hands are laid down at the end
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
    assert_cards_conserved(state)
    while not state.over:
        assert len(log) < 3000, "the hand did not end"
        seat = state.turn
        action = GAME.random_action(state, seat, rng)
        before = state.copy()
        new, events = apply(state, seat, action)
        assert state == before, "apply mutated its input"
        # Cards on the table stay there.
        assert not Counter(c for m in state.table for c in m.cards) - Counter(
            c for m in new.table for c in m.cards
        )
        for event in events:
            for viewer in (None, *range(players)):
                shown = "secret" in event.to_dict(viewer)
                assert shown == (viewer == seat and bool(event.secret))
        state = new
        log.append((seat, str(action)))
        assert_table_valid(state, checked)
        # The costlier checks every few actions (each still sees thousands of positions).
        if len(log) % 3 == 0:
            assert_cards_conserved(state)
        if len(log) % 5 == 0:
            assert_view_keeps_secrets(state, rng)
            data = json.loads(json.dumps(state.to_dict()))
            assert State.from_dict(data).to_dict() == data
    assert_cards_conserved(state)
    data = json.loads(json.dumps(state.to_dict()))
    assert State.from_dict(data).to_dict() == data
    again = GAME.replay(rules, start.seats, seed, log, dealer=start.dealer)
    assert again.to_dict() == state.to_dict()
    assert list(state.result.scores) == expected_scores(state)


@settings(
    max_examples=GAMES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    rules=rule_options,
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**48),
    play_seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_complete_hands_keep_every_invariant(rules, players, seed, play_seed):
    play_and_check(rules, players, f"basic-rummy-{seed:015d}", random.Random(play_seed))
