"""Properties over many random complete hands (2-4 players, random rule options, random play
mixing the bots' moves with random pickups, melds, lay-offs, passes and discards): every
card accounted for, every meld on the table valid after every action, the cards in front
of the players are the table's, apply never mutates its input, views unchanged when the
hidden cards are dealt afresh, the state survives JSON, a replay from the log is the same
hand, and the scores match an independent computation from the log.

1000 hands as CI runs it; ``TEST_SCALE`` (tests/scale.py) multiplies the count.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import full_deck, parse_cards
from games.engine.thai_rummy import GAME, Rules, apply, classify, player_view
from games.engine.thai_rummy.state import State
from tests.scale import examples

GAMES = examples(500)

rule_options = st.builds(Rules, double_out_bonus=st.booleans(), layoff_shows=st.booleans())


def assert_cards_conserved(state: State) -> None:
    counted = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands:
        counted.update(hand)
    for meld in state.table:
        counted.update(meld.cards)
    if state.face_down is not None:
        counted[state.face_down] += 1
    assert counted == Counter(full_deck())
    assert Counter(c for d in state.displayed for c in d) == Counter(
        c for m in state.table for c in m.cards
    )
    assert len(state.discarded_by) == len(state.discard)


def assert_table_valid(state: State, checked: set) -> None:
    for meld in state.table:
        if meld in checked:
            continue
        checked.add(meld)
        again = classify(meld.cards, state.rules)
        assert (again.kind, again.stands) == (meld.kind, meld.stands)
        # Aces high, twos low: never A-2 in a run.
        ranks = [c.rank for c in meld.cards]
        assert not (meld.kind == "run" and 1 in ranks and 2 in ranks)


def value(card) -> int:
    """Document 003's card values, written out apart from the engine's."""
    if (card.suit, card.rank) in (("S", 12), ("C", 2)):
        return 50
    return {1: 15, 10: 10, 11: 10, 12: 10, 13: 10}.get(card.rank, 5)


class Ledger:
    """What the log says, kept apart from the engine's state: who placed which cards, who
    showed a meld and when, the discards that fitted a meld, and the last pickup."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.rules = rules
        self.placed = [0] * players
        self.shown = [False] * players
        self.shown_before = [False] * players
        self.fitted = [0] * players
        self.fed_by: int | None = None
        self.pile_owner: list[int | None] = [None]

    def record(self, seat: int, events: list) -> None:
        for event in events:
            params = event.params
            if event.code == "took":
                cards = params["cards"]
                thrower = self.pile_owner[-1]
                self.fed_by = thrower if len(cards) == 1 and thrower not in (None, seat) else None
                del self.pile_owner[len(self.pile_owner) - len(cards) :]
            elif event.code == "drew":
                self.fed_by = None
            elif event.code == "melded":
                self.placed[seat] += sum(value(c) for c in parse_cards(params["meld"]))
                self.shown[seat] = True
            elif event.code == "laid-off":
                self.placed[seat] += sum(value(c) for c in parse_cards(params["cards"]))
                if self.rules.layoff_shows:
                    self.shown[seat] = True
            elif event.code == "discarded":
                self.pile_owner.append(seat)
            elif event.code == "discard-fitted":
                self.fitted[seat] += 1
        ended_turn = any(e.code in ("discarded", "passed") for e in events)
        if ended_turn:
            self.shown_before[seat] = self.shown[seat]
            self.fed_by = None

    def scores(self, state: State) -> list[int]:
        result = state.result
        winner = result.winner
        totals = []
        for seat, hand in enumerate(state.hands):
            if seat == winner:
                base = self.placed[seat]
                if self.shown_before[seat]:
                    score = base + 50
                elif self.rules.double_out_bonus:
                    score = 2 * (base + 50)
                else:
                    score = 2 * base + 50
            else:
                score = self.placed[seat] - sum(value(c) for c in hand)
                if not self.shown[seat]:
                    score *= 2
            score -= 50 * self.fitted[seat]
            if winner is not None and seat == self.fed_by:
                score -= 50
            totals.append(score)
        return totals


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
    ledger = Ledger(players, rules)
    assert_cards_conserved(state)
    while not state.over:
        assert len(log) < 3000, "the hand did not end"
        seat = state.turn
        action = GAME.random_action(state, seat, rng)
        before = state.copy()
        new, events = apply(state, seat, action)
        assert state == before, "apply mutated its input"
        for event in events:
            for viewer in (None, *range(players)):
                shown = "secret" in event.to_dict(viewer)
                assert shown == (viewer == seat and bool(event.secret))
        ledger.record(seat, events)
        state = new
        log.append((seat, str(action)))
        assert_table_valid(state, checked)
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
    assert list(state.result.scores) == ledger.scores(state)
    if state.result.winner is not None:
        assert not state.hands[state.result.winner]


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
def test_random_complete_hands_keep_every_invariant(rules, players, seed, play_seed):
    play_and_check(rules, players, f"thai-rummy-{seed:015d}", random.Random(play_seed))
