"""Thai Rummy's bots.  A bot sees exactly what its seat's ``player_view`` shows, nothing
more, and plays one action at a time (the engine asks again after each meld or lay-off).

* ``easy``   - takes the pile's top card when it makes a meld at once, melds the first meld
  it sees, lays off now and then, and throws one of its highest cards (a card that fits a
  meld on the table too, and pays the -50).
* ``normal`` - the exact planner (:mod:`games.engine.card_planner`, keeping a card to
  discard and going out whenever it can): digs a few cards deep into the pile when the
  best plan after the pickup beats a card from the stock, places what the best plan places,
  and throws the highest card that is not part of a pair or a near run and fits no meld.
* ``hard``   - the planner too, digging through the whole pile but counting every card a
  pickup leaves in hand against it (a card more is a turn further from going out); it throws
  the card that leaves the most promising hand (:mod:`games.engine.card_outlook`, by Thai
  points) and, near the end, the most draws that go out next turn, never a card that would
  cost the -50 when another will do, and keeps its melds in hand to go out doubled while
  nobody is close to going out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from ..card_actions import Action, Discard, Draw, Group, LayOff, MeldCards
from ..card_melds import Meld
from ..card_outlook import promise, unseen_cards
from ..card_planner import Limits, Plan, best_plan, candidate_melds
from ..cards import Card, parse_cards
from .actions import Pass, Take
from .rules import Rules
from .scoring import card_points, points
from .turns import fitting_meld

EASY = "easy"
NORMAL = "normal"
HARD = "hard"
LEVELS = (EASY, NORMAL, HARD)

# How deep in the pile each level looks for a pickup.
DEPTH = {EASY: 1, NORMAL: 4, HARD: 12}
# What a card from the stock is expected to cost if it stays in hand (the mean of the
# card points over the deck is a little over 9).
STOCK_CARD_COST = 9
# Holding a card that a meld on the table would take costs -50 when it is thrown.
FITS_TABLE = 100.0
KEEP_A_CARD = Limits(keep=1, out_with=1)
# A player who shows nothing before the turn they go out in scores double (the +50 too),
# and one who shows nothing at all loses double: the hard bot keeps its melds in hand while
# every other player still holds at least this many cards.
HOLD_OTHERS = 4
# What the hard bot counts for each card a choice of draw leaves in hand, besides its
# points: a card more is a turn further from going out, which is what wins hands.  Without
# it the hard bot dug deep for points and won no more hands than normal.
CARD_WEIGHT = 10
# With at most this many cards left after its discard, the hard bot also counts, for each
# discard, the unseen cards that would let the rest go out on the next draw, at this weight
# each (an out of ``promise`` is 2.5): with two cards left a pair that a third card would
# meld cannot go out (a card must stay to discard), a card one away from a lay-off can.
NEXT_OUT_WEIGHT = 10.0
NEXT_OUT_CARDS = 7


class Seen:
    """The bot's seat as its view shows it."""

    def __init__(self, view: dict[str, Any]) -> None:
        seat = view["seat"]
        if seat is None or view["result"] is not None or view["turn"] != seat:
            raise ValueError("the bot's seat is not to move")
        self.seat: int = seat
        self.rules = Rules.from_dict(view["rules"])
        self.hand = parse_cards(view["hand"])
        self.table = [Meld.from_text(f"{m['kind']} {m['notation']}") for m in view["table"]]
        self.pile = parse_cards(view["discard"])
        self.drawing = view["phase"] == "draw"
        self.stock_count: int = view["stock_count"]
        self.shown: bool = view["shown"][seat]
        self.others_fewest = min(
            (n for s, n in enumerate(view["hand_counts"]) if s != seat), default=0
        )
        self.unseen = unseen_cards(self.hand, self.table, self.pile)

    def plan(self, hand: Sequence[Card], table: Sequence[Meld] | None = None) -> Plan:
        melds = self.table if table is None else table
        return best_plan(hand, melds, self.rules, KEEP_A_CARD, True, card_points)

    def promise(self, hand: Sequence[Card]) -> float:
        return promise(hand, self.unseen, self.rules, card_points)

    def fits_table(self, card: Card) -> bool:
        return fitting_meld(card, self.table, self.rules) is not None


def choose(view: dict[str, Any], level: str, rng: random.Random) -> Action:
    """One action for the seat whose ``view`` this is; it must be that seat's turn."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    seen = Seen(view)
    if seen.drawing:
        return _draw(seen, level, rng)
    if level == EASY:
        return _easy_play(seen, rng)
    plan = seen.plan(seen.hand)
    if level == HARD and _holds_for_doubling(seen, plan):
        return Discard(_most_promising_discard(seen, list(plan.left)))
    step = first_step(plan)
    if step is not None:
        return step
    left = list(plan.left)
    if len(left) == 1:
        return Discard(left[0])  # face down: out
    if level == HARD:
        return Discard(_most_promising_discard(seen, left))
    return Discard(_plain_discard(seen, left))


def _holds_for_doubling(seen: Seen, plan: Plan) -> bool:
    """Whether to keep the plan's melds in hand this turn, to go out later in one turn with
    nothing shown before, which doubles the hand's score: only while the plan cannot go out
    now and nobody is close to going out (a player who shows nothing loses double too)."""
    if seen.shown or not plan.places_anything or len(plan.left) <= 1:
        return False
    return seen.others_fewest >= HOLD_OTHERS


def first_step(plan: Plan) -> Action | None:
    """The plan's next action: its melds first, then its lay-offs (which may be onto those
    melds, so the plan is made again once they are on the table)."""
    if plan.melds:
        return MeldCards(Group(plan.melds[0].cards))
    if plan.layoffs:
        index, card, _ = plan.layoffs[0]
        return LayOff(index, Group((card,)))
    return None


# --- drawing ---------------------------------------------------------------------------------


def pickups(seen: Seen, depth: int) -> Iterator[tuple[Take, Meld, list[Card]]]:
    """Every legal pickup at most ``depth`` cards deep: the action, its meld and the hand
    after it."""
    in_hand = set(seen.hand)
    for down in range(1, min(depth, len(seen.pile)) + 1):
        card = seen.pile[-down]
        picked = seen.pile[-down:]
        pool = [*seen.hand, *picked]
        for meld in candidate_melds(pool, seen.rules):
            if card not in meld.cards or not any(c in in_hand for c in meld.cards):
                continue
            rest = list((Counter(pool) - Counter(meld.cards)).elements())
            if rest:
                yield Take(card, Group(meld.cards)), meld, rest


def _value(plan: Plan, placed_first: int = 0, per_card: float = 0) -> float:
    """What the hand would score if it ended after ``plan`` (placed less kept), with
    going out worth its 50."""
    left = points(plan.left)
    placed = placed_first + sum(points(m.cards) for m in plan.melds)
    placed += sum(card_points(card) for _, card, _ in plan.layoffs)
    if len(plan.left) <= 1:
        return placed + 50
    return placed - left - per_card * len(plan.left)


def _draw(seen: Seen, level: str, rng: random.Random) -> Action:
    if level == EASY:
        for take, _meld, _rest in pickups(seen, DEPTH[EASY]):
            if rng.random() < 0.8:
                return take
            break
        return Draw() if seen.stock_count else Pass()
    per_card = CARD_WEIGHT if level == HARD else 0
    staying = _value(seen.plan(seen.hand), 0, per_card)
    if seen.stock_count:
        # The card drawn is one card more in hand, as a pickup's cards are in its plan.
        staying -= STOCK_CARD_COST + per_card
    best: tuple[float, Take] | None = None
    for take, meld, rest in pickups(seen, DEPTH[level]):
        value = _value(seen.plan(rest, [*seen.table, meld]), points(meld.cards), per_card)
        if best is None or value > best[0]:
            best = (value, take)
    if best is not None and best[0] > staying:
        return best[1]
    return Draw() if seen.stock_count else Pass()


# --- playing ---------------------------------------------------------------------------------


def _easy_play(seen: Seen, rng: random.Random) -> Action:
    for meld in candidate_melds(seen.hand, seen.rules):
        if len(seen.hand) > len(meld.cards):
            return MeldCards(Group(meld.cards))
    if rng.random() < 0.5 and len(seen.hand) > 1:
        for card in seen.hand:
            index = fitting_meld(card, seen.table, seen.rules)
            if index is not None:
                return LayOff(index, Group((card,)))
    if len(seen.hand) == 1:
        return Discard(seen.hand[0])
    high = sorted(seen.hand, key=lambda c: (-card_points(c), str(c)))
    return Discard(rng.choice(high[:3]))


def _plain_discard(seen: Seen, hand: list[Card]) -> Card:
    """The card least worth keeping: points, less for being near other cards, and never
    one that fits a meld on the table when another will do."""

    def worth_throwing(card: Card) -> float:
        score = card_points(card) - 6 * min(_closeness(card, hand), 2)
        return score - (FITS_TABLE if seen.fits_table(card) else 0)

    return max(hand, key=lambda c: (worth_throwing(c), str(c)))


def _most_promising_discard(seen: Seen, hand: list[Card]) -> Card:
    best: tuple[float, str, Card] | None = None
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        value = seen.promise(rest) - (FITS_TABLE if seen.fits_table(card) else 0)
        if NEXT_OUT_WEIGHT:
            whole = list(seen.hand)
            whole.remove(card)
            if len(whole) <= NEXT_OUT_CARDS:
                value += NEXT_OUT_WEIGHT * _ways_out(seen, whole)
        if best is None or (value, str(card)) > best[:2]:
            best = (value, str(card), card)
    assert best is not None
    return best[2]


def _closeness(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards make a near meld with ``card``: same rank, or same suit within
    two ranks (the ace next to the king only)."""
    high = 14 if card.rank == 1 else card.rank
    near = 0
    for other in hand:
        if other == card:
            continue
        other_high = 14 if other.rank == 1 else other.rank
        if other.rank == card.rank or (other.suit == card.suit and abs(other_high - high) <= 2):
            near += 1
    return near


def _ways_out(seen: Seen, hand: list[Card]) -> int:
    """How many unseen cards, drawn next turn, would let ``hand`` go out."""
    return sum(1 for card in seen.unseen if len(seen.plan([*hand, card]).left) <= 1)
