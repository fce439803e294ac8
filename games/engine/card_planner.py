"""The exact best meld and lay-off plan from a hand, for the card rummies' normal and hard
bots (each game passes its own rules and card points).

Exact by search, not by rule of thumb: every new meld the hand can make is found, every
disjoint choice of them is tried (the lowest card not yet decided either starts one of its
melds or stays out of new melds), and for each choice the lay-offs of what is left are
searched exhaustively (memoised on the cards left and the melds), since a card that fits two
melds may block or open others.  The best plan leaves the fewest points in hand, then the
fewest cards; going out beats everything.  Constraints of the turn are parameters, so the
plan is one the engine accepts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .card_melds import (
    MAX_SET,
    MIN_MELD,
    SET,
    SHORT_MELD_LIMIT,
    Meld,
    classify,
    lay_off,
    windows,
)
from .cards import JOKER, SUITS, Card, sort_key
from .core.budget import Stop, never
from .errors import InvalidMeld

# The points a card left in hand costs (each game's own scoring).
Points = Callable[[Card], int]
# A game's rules: ``aces``, ``long_melds`` (card_melds) and ``jokers``.
Rules = Any
# Lay-offs of a plan, each (meld from 1, card, reading), and the cards they leave in hand.
Layoffs = tuple[tuple[int, Card, Card | None], ...]
LayoffSearch = tuple[Layoffs, tuple[Card, ...]]
# ``_best_layoffs``'s memo: (cards left, melds on the table) -> its answer.
LayoffCache = dict[tuple[tuple[Card, ...], tuple[Meld, ...]], LayoffSearch]


@dataclass(frozen=True, slots=True)
class Limits:
    """What the turn allows: how many new melds, whether lay-offs are allowed before a meld
    of one's own, how many cards must stay in hand (0: going out without a discard is fine;
    1: a final discard; 2: not allowed to go out yet), and the card that may not be
    discarded (just taken from the pile)."""

    new_melds: int | None = None
    lay_off_needs_meld: bool = False
    keep: int = 0
    not_discard: Card | None = None
    # How many cards may be left for the plan to go out: 0, or 1 where the last card is
    # discarded face down to go out (Thai Rummy).
    out_with: int = 0


@dataclass(frozen=True, slots=True)
class Plan:
    melds: tuple[Meld, ...] = ()
    layoffs: Layoffs = ()  # (meld from 1, card, reading)
    left: tuple[Card, ...] = ()
    score: tuple[int, ...] = field(default=(), compare=False)

    @property
    def places_anything(self) -> bool:
        return bool(self.melds or self.layoffs)


def candidate_melds(hand: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every meld the cards of ``hand`` can make (jokers with every useful reading)."""
    jokers = sum(c.is_joker for c in hand)
    naturals = sorted({c for c in hand if not c.is_joker}, key=sort_key)
    found: dict[tuple[str, tuple[Card, ...]], Meld] = {}
    for meld in [*_sets(naturals, jokers, rules), *_runs(naturals, jokers, rules)]:
        found.setdefault((meld.kind, meld.stands), meld)
    return list(found.values())


def _sets(naturals: list[Card], jokers: int, rules: Rules) -> Iterator[Meld]:
    by_rank: dict[int, list[Card]] = {}
    for card in naturals:
        by_rank.setdefault(card.rank, []).append(card)
    for cards in by_rank.values():
        for size in range(2, len(cards) + 1):
            for chosen in combinations(cards, size):
                for wild in range(0, min(jokers, size // 2) + 1):
                    if MIN_MELD <= size + wild <= MAX_SET:
                        yield from _judged([*chosen, *[JOKER] * wild], rules)


def _runs(naturals: list[Card], jokers: int, rules: Rules) -> Iterator[Meld]:
    longest = 13 if rules.long_melds else SHORT_MELD_LIMIT
    for suit in SUITS:
        ranks = {c.rank for c in naturals if c.suit == suit}
        if len(ranks) < 2:
            continue
        for length in range(MIN_MELD, min(longest, len(ranks) + jokers) + 1):
            for window in windows(length, rules):
                missing = [r for r in window if r not in ranks]
                if len(missing) > jokers or 2 * len(missing) > length - len(missing):
                    continue
                readings = [Card(suit, r) for r in missing]
                cards = [Card(suit, r) if r in ranks else JOKER for r in window]
                yield from _judged(cards, rules, readings)


def _judged(cards: list[Card], rules: Rules, readings: Sequence[Card] = ()) -> Iterator[Meld]:
    try:
        yield classify(cards, rules, readings)
    except InvalidMeld:
        return


def best_plan(
    hand: Sequence[Card],
    table: Sequence[Meld],
    rules: Rules,
    limits: Limits,
    melded: bool,
    points: Points,
) -> Plan:
    """The plan that leaves least in hand (by ``points``); ``melded``: the player has a meld
    of their own."""
    return best_plan_within(hand, table, rules, limits, melded, points)[0]


def best_plan_within(
    hand: Sequence[Card],
    table: Sequence[Meld],
    rules: Rules,
    limits: Limits,
    melded: bool,
    points: Points,
    stop: Stop = never,
) -> tuple[Plan, bool]:
    """:func:`best_plan`, asking ``stop`` (see ``core.budget``) before each choice of new
    melds: the best plan of the choices tried, and whether every choice was tried (the
    plan is then exact; otherwise it is the best found)."""
    hand = sorted(hand, key=sort_key)
    candidates = candidate_melds(hand, rules)
    best: Plan | None = None
    cache: LayoffCache = {}
    exact = True
    for chosen in _meld_choices(hand, candidates, limits.new_melds):
        if best is not None and stop():
            exact = False
            break
        left = Counter(hand)
        for meld in chosen:
            left -= Counter(meld.cards)
        may_lay_off = not limits.lay_off_needs_meld or melded or bool(chosen)
        melds = (*table, *chosen)
        if may_lay_off:
            layoffs, rest = _best_layoffs(
                tuple(sorted(left.elements(), key=sort_key)),
                melds,
                rules,
                points,
                limits.keep,
                cache,
            )
        else:
            layoffs, rest = (), tuple(sorted(left.elements(), key=sort_key))
        plan = _scored(Plan(tuple(chosen), layoffs, rest), points, limits)
        if plan is None:
            # Too few cards kept: the same melds without the lay-offs may do.
            plan = _scored(Plan(tuple(chosen), (), _left_after(hand, chosen)), points, limits)
        if plan is not None and (best is None or plan.score > best.score):
            best = plan
    return best or Plan(left=tuple(hand), score=(0,)), exact


def _left_after(hand: list[Card], chosen: Sequence[Meld]) -> tuple[Card, ...]:
    left = Counter(hand)
    for meld in chosen:
        left -= Counter(meld.cards)
    return tuple(sorted(left.elements(), key=sort_key))


def _scored(plan: Plan, points: Points, limits: Limits) -> Plan | None:
    left = list(plan.left)
    if len(left) < limits.keep:
        return None
    if left and not any(c != limits.not_discard or left.count(c) > 1 for c in left):
        return None
    value = sum(points(c) for c in left)
    # Going out first; then the fewest points and cards kept; then keep jokers for later.
    score = (int(len(left) <= limits.out_with), -value, -len(left), sum(c.is_joker for c in left))
    return Plan(plan.melds, plan.layoffs, plan.left, score)


def _meld_choices(
    hand: list[Card], candidates: list[Meld], most: int | None
) -> Iterator[tuple[Meld, ...]]:
    """Every set of disjoint candidate melds (at most ``most``)."""
    starting: dict[Card, list[Meld]] = {}
    for meld in candidates:
        first = min((c for c in meld.cards if not c.is_joker), key=sort_key)
        starting.setdefault(first, []).append(meld)
    naturals = sorted({c for c in hand if not c.is_joker}, key=sort_key)

    def walk(
        index: int, pool: Counter[Card], chosen: tuple[Meld, ...]
    ) -> Iterator[tuple[Meld, ...]]:
        if index == len(naturals) or (most is not None and len(chosen) >= most):
            yield chosen
            return
        card = naturals[index]
        yield from walk(index + 1, pool, chosen)
        if not pool[card]:
            return
        for meld in starting.get(card, ()):
            need = Counter(meld.cards)
            if all(pool[c] >= k for c, k in need.items()):
                yield from walk(index + 1, pool - need, (*chosen, meld))

    yield from walk(0, Counter(hand), ())


def _best_layoffs(
    left: tuple[Card, ...],
    melds: tuple[Meld, ...],
    rules: Rules,
    points: Points,
    keep: int,
    cache: LayoffCache,
) -> LayoffSearch:
    """The lay-offs of ``left`` onto ``melds`` that leave the fewest points (and at least
    ``keep`` cards), searched exhaustively (cards one at a time, each onto each meld it
    fits); ``cache`` keeps the answers for one hand, as several meld choices reach the same
    tables."""

    def search(cards: tuple[Card, ...], table: tuple[Meld, ...]) -> LayoffSearch:
        known = cache.get((cards, table))
        if known is not None:
            return known
        best: LayoffSearch = ((), cards)
        best_key = _left_key(cards, points)
        if len(cards) <= keep:
            cache[(cards, table)] = best
            return best
        for card in sorted(set(cards), key=sort_key):
            rest = list(cards)
            rest.remove(card)
            for index, grown, reading in _fits(card, table, rules):
                steps, kept = search(tuple(rest), (*table[:index], grown, *table[index + 1 :]))
                key = _left_key(kept, points)
                if key > best_key:
                    best, best_key = (((index + 1, card, reading), *steps), kept), key
        cache[(cards, table)] = best
        return best

    return search(left, melds)


def _left_key(cards: tuple[Card, ...], points: Points) -> tuple[int, int]:
    return (-sum(points(c) for c in cards), -len(cards))


def _fits(
    card: Card, table: tuple[Meld, ...], rules: Rules
) -> Iterator[tuple[int, Meld, Card | None]]:
    for index, meld in enumerate(table):
        if not card.is_joker and not _may_touch(card, meld):
            continue
        readings: list[Card | None] = [None]
        if card.is_joker:
            readings = _joker_spots(meld, rules)
        for reading in readings:
            try:
                grown = lay_off(meld, (card,), rules, (reading,) if reading else ())
            except InvalidMeld:
                continue
            yield index, grown, reading


def _may_touch(card: Card, meld: Meld) -> bool:
    """A quick test before the real one: a set of the card's rank, or a run of its suit
    with an end next to it (or any ace, which may wrap)."""
    if meld.kind == SET:
        return card.rank == meld.rank
    if card.suit != meld.suit:
        return False
    ends = {meld.stands[0].rank, meld.stands[-1].rank}
    return card.rank == 1 or any(abs(card.rank - e) == 1 or {card.rank, e} == {1, 13} for e in ends)


def _joker_spots(meld: Meld, rules: Rules) -> list[Card | None]:
    """Where a joker laid off on ``meld`` could stand: a missing suit of a set, either end
    of a run."""
    if meld.kind == SET:
        taken = set(meld.stands)
        missing: list[Card | None] = [
            Card(s, meld.rank) for s in SUITS if Card(s, meld.rank) not in taken
        ]
        return missing[:1]
    spots: list[Card | None] = []
    for window in windows(len(meld.cards) + 1, rules):
        if set(s.rank for s in meld.stands) <= set(window):
            extra = [r for r in window if r not in {s.rank for s in meld.stands}]
            spots.extend(Card(meld.suit, r) for r in extra)
    return list(dict.fromkeys(spots))
