"""Swiss pairing: concrete rounds, and properties over random results checked against an
independent brute force (every seating of the field) on small fields and an exact search
(swiss_oracle) on fields of 11-40.

60 examples as CI runs it; ``TEST_SCALE`` (tests/scale.py) multiplies the count."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scale import examples
from tests.tournaments.swiss_oracle import fewer_repeats, play
from tournaments.formats.partition import Candidates, cheapest_partition
from tournaments.formats.swiss import _combinations, _partitions, repeats, swiss_round
from tournaments.formats.tables import Round, bye_counts, meetings, table_sizes

EXAMPLES = examples(60)


def seatings(players: list[int], sizes: list[int]):
    """Every way to seat ``players`` at tables of ``sizes`` (sizes in any order)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in seatings(remaining, left):
                yield [(first, *others), *tail]


def fewest_repeats(players: list[int], history: list[Round], seats: int) -> int:
    """The least number of repeated pairs over every fair choice of byes and every seating."""
    sizes, byes = table_sizes(len(players), seats)
    had = bye_counts(history)
    met = meetings(history)
    level = sorted(had[p] for p in players)[byes - 1] if byes else None
    must = [p for p in players if byes and had[p] < level]
    may = [p for p in players if byes and had[p] == level]
    best = None
    for extra in combinations(may, byes - len(must)):
        out = set(must) | set(extra)
        for tables in seatings([p for p in players if p not in out], sizes):
            count = sum(met[frozenset(pair)] > 0 for t in tables for pair in combinations(t, 2))
            best = count if best is None else min(best, count)
    return best


def test_nine_players_at_tables_of_three_over_three_rounds():
    players = list(range(1, 10))
    history: list[Round] = []
    first = swiss_round(players, {}, history, 3)
    # Round one seats the seeding order in threes.
    assert first.tables == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    history.append(first)
    # Winners, seconds and thirds of round one: 4 points for 1, 4, 7; 2 for 2, 5, 8.
    scores = {1: 4, 4: 4, 7: 4, 2: 2, 5: 2, 8: 2}
    second = swiss_round(players, scores, history, 3)
    assert second.tables == ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    history.append(second)
    scores = {1: 8, 4: 6, 7: 4, 2: 6, 5: 4, 8: 2, 3: 4, 6: 2, 9: 0}
    third = swiss_round(players, scores, history, 3)
    assert repeats(third, history) == 0
    # A table without a repeat takes one player from each table of round one and one from
    # each of round two: two seatings exist. {1,5,9} {2,6,7} {3,4,8} spreads 16 + 8 + 8 =
    # 32 points of pair differences; {1,6,8} {2,4,9} {3,5,7} spreads 12 + 12 + 0 = 24.
    assert third.tables == ((1, 6, 8), (2, 4, 9), (3, 5, 7))


def test_byes_go_to_the_lowest_placed_then_round_the_field():
    players = list(range(5))
    history: list[Round] = []
    given_byes = []
    for _ in range(5):
        round_ = swiss_round(players, {}, history, 2)
        given_byes.extend(round_.byes)
        history.append(round_)
    assert given_byes[0] == 4  # lowest placed (all level: the last in the seeding)
    assert sorted(given_byes) == players  # five rounds, five different players


def test_smaller_tables_instead_of_byes_when_allowed():
    round_ = swiss_round(list(range(10)), {}, [], 4, min_table=3)
    assert sorted(len(t) for t in round_.tables) == [3, 3, 4]
    assert round_.byes == ()


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seats=st.integers(2, 4),
    data=st.data(),
    seed=st.integers(0, 2**32),
)
def test_no_avoidable_repeat_on_small_fields(seats, data, seed):
    limit = {2: 10, 3: 10, 4: 9}[seats]
    players = list(range(data.draw(st.integers(5, limit))))
    rounds = data.draw(st.integers(1, 6))
    rng = random.Random(seed)
    scores: Counter = Counter()
    history: list[Round] = []
    for _ in range(rounds):
        round_ = swiss_round(players, scores, history, seats)
        assert repeats(round_, history) == fewest_repeats(players, history, seats)
        check_round(round_, players, history, seats)
        history.append(round_)
        play(round_, scores, rng)


@settings(
    max_examples=max(1, EXAMPLES // 6),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    # Half the fields where repeats come soonest and the pairing is windowed and repaired
    # (21-30 players at tables of 4, up to round 7), half anywhere in 11-40.
    field=st.one_of(
        st.tuples(st.just(4), st.integers(21, 30), st.integers(5, 7)),
        st.tuples(st.integers(2, 4), st.integers(11, 40), st.integers(3, 7)),
    ),
    seed=st.integers(0, 2**32),
)
def test_no_avoidable_repeat_on_fields_of_11_to_40(field, seed):
    """Beyond the brute force's reach: every round that repeats a meeting is checked by an
    exact search for a fair seating with fewer repeats (none may exist)."""
    seats, size, rounds = field
    players = list(range(size))
    rng = random.Random(seed)
    scores: Counter = Counter()
    history: list[Round] = []
    for number in range(1, rounds + 1):
        round_ = swiss_round(players, scores, history, seats)
        found = repeats(round_, history)
        if found:
            better = fewer_repeats(players, history, seats, found, seconds=60)
            assert better is False, f"round {number}: {found} repeats, {better} possible"
        history.append(round_)
        play(round_, scores, rng)


@settings(
    max_examples=max(1, EXAMPLES // 3),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seats=st.integers(2, 4),
    size=st.integers(5, 40),
    rounds=st.integers(2, 5),
    seed=st.integers(0, 2**32),
)
def test_every_round_seats_everyone_fairly(seats, size, rounds, seed):
    players = list(range(size))
    rng = random.Random(seed)
    scores: Counter = Counter()
    history: list[Round] = []
    for _ in range(rounds):
        round_ = swiss_round(players, scores, history, seats)
        check_round(round_, players, history, seats)
        history.append(round_)
        play(round_, scores, rng)


def check_round(round_: Round, players: list[int], history: list[Round], seats: int) -> None:
    assert sorted(round_.players()) == players
    assert all(2 <= len(t) <= seats for t in round_.tables)
    had = bye_counts([*history, round_])
    counts = [had[p] for p in players]
    assert max(counts) - min(counts) <= 1  # never a second bye while someone has none


@settings(max_examples=max(10, EXAMPLES // 3), deadline=None)
@given(st.sampled_from([(12, 4), (9, 3), (12, 3), (8, 2), (10, 2)]), st.integers(0, 10**6))
def test_an_enumerated_window_is_as_cheap_as_the_solvers_seating(shape, seed):
    """Small windows of a big field are priced seating by seating instead of by HiGHS:
    every seating is listed once, and the cheapest one costs what the solver's does."""
    players, size = shape
    every = _partitions(players, size)
    tables = players // size
    assert len({tuple(sorted(row)) for row in every.tolist()}) == len(every)
    members = _combinations(players, size)
    assert all(sorted(members[row].ravel().tolist()) == list(range(players)) for row in every)
    brute = sum(1 for _ in seatings(list(range(players)), [size] * tables))
    assert len(every) == brute
    rng = random.Random(seed)
    costs = np.array([float(rng.randrange(1000)) for _ in range(len(members))])
    enumerated = float(costs[every].sum(axis=1).min())
    picked = cheapest_partition(players, [Candidates(size, members, costs)], {size: tables})
    assert enumerated == sum(costs[row] for _block, row in picked)
