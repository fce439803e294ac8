"""Bot players.  A bot sees exactly what its seat's ``player_view`` shows, nothing more, and
plays one action at a time (the engine asks again after each meld or lay-off).

* ``easy``   — takes the discard when it makes a meld at once, melds the first meld it sees,
  lays off now and then, and throws one of its highest cards.
* ``normal`` — the exact planner (:mod:`.planner`): takes the discard when the best plan
  uses it, places what the best plan places, and throws the highest card that is not part
  of a pair or a near run.
* ``hard``   — the planner too; it throws the card that leaves the most promising hand
  (:mod:`.outlook`: unseen cards that would make melds, against points at risk), never a card
  someone could lay off on the table when another will do, keeps its melds in hand to go
  rummy (doubled) while nobody is close to going out, digs in a spread pile (rummy 500)
  for a card it can meld, and with one meld a turn and few cards left throws the card that
  leaves the most draws to go out next turn; in block rummy, near the stock's end, it sheds
  points and lays its melds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..card_melds import RUN, SET, Meld, lay_off
from ..card_outlook import promise, unseen_cards
from ..cards import Card, parse_card, parse_cards
from ..errors import InvalidMeld
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Take
from .planner import Limits, Plan, best_plan, candidate_melds
from .rules import STOCK_BLOCK, Rules
from .scoring import card_points

EASY = "easy"
NORMAL = "normal"
HARD = "hard"
LEVELS = (EASY, NORMAL, HARD)

# Going rummy (out in one turn, nothing laid before) doubles the winner's points, and a
# loser pays nothing for the cards in hand: so the hard bot keeps its melds in hand while
# every other player holds at least this many cards (nobody is about to go out and collect
# the held melds' points).
HOLD_OTHERS = 4
# With one meld a turn a hand goes out over several turns, and a hand that was ready to
# go out but did not collects nothing while it holds its points: with at most
# ``NEXT_OUT_CARDS`` cards left after its discard, the hard bot also counts, for each
# discard, the unseen cards that would let the rest go out on the next draw, at this weight
# each (an out of ``promise`` is 2.5).  Measured on the one-meld-a-turn family, 2,000 hands:
# score per hand against normal +1.0 [-0.0, +1.9] before, +1.3 [+0.3, +2.3] with it.
NEXT_OUT_WEIGHT = 10.0
NEXT_OUT_CARDS = 5
# Block rummy: when the stock runs out the hand ends and every hand pays its points, so with
# at most ``BLOCK_STOCK`` cards left in the stock (two rounds of four) the hard bot holds no
# melds for rummy and counts each point it keeps this much more.  Measured, 2,000 hands
# against normal: held melds cost it 55 points a blocked hand (normal 30); score per hand
# -2.2 [-3.6, -0.8] before, +6.3 [+4.9, +7.6] with it.
BLOCK_STOCK = 8
BLOCK_POINT_WEIGHT = 0.6


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
        self.top = parse_card(view["discard_top"]) if view["discard_top"] else None
        self.pile = parse_cards(view["discard"]) if view["discard"] is not None else None
        self.drawing = view["phase"] == "draw"
        self.taken = parse_card(view["taken"]) if view["taken"] else None
        self.melded: bool = view["melded"][seat]
        self.may_go_out: bool = view["may_go_out"][seat]
        self.melds_this_turn: int = view["melds_this_turn"]
        self.played_before: bool = view["played_before"][seat]
        self.stock_count: int = view["stock_count"]
        self.others_fewest = min(
            (n for s, n in enumerate(view["hand_counts"]) if s != seat), default=0
        )
        visible = self.pile if self.pile is not None else [self.top] if self.top else []
        self.unseen = unseen_cards(self.hand, self.table, visible)

    def limits(self, taken: Card | None = None) -> Limits:
        rules = self.rules
        new_melds = None
        if rules.one_meld_per_turn:
            new_melds = max(0, 1 - self.melds_this_turn)
        keep = 2 if not self.may_go_out else (1 if rules.final_discard else 0)
        return Limits(new_melds, rules.lay_off_after_own_meld, keep, taken or self.taken)

    @property
    def block_near(self) -> bool:
        """Block rummy with the stock about to run out (and every hand to pay its points)."""
        return self.rules.stock_empty == STOCK_BLOCK and self.stock_count <= BLOCK_STOCK

    def promise(self, hand: Sequence[Card]) -> float:
        value = promise(hand, self.unseen, self.rules, lambda c: card_points(c, self.rules))
        if self.block_near:
            value -= BLOCK_POINT_WEIGHT * sum(card_points(c, self.rules) for c in hand)
        return value

    def plan(self, hand: Sequence[Card] | None = None, taken: Card | None = None) -> Plan:
        cards = self.hand if hand is None else hand
        return best_plan(cards, self.table, self.rules, self.limits(taken), self.melded)


def choose(view: dict[str, Any], level: str, rng: random.Random) -> Action:
    """One action for the seat whose ``view`` this is; it must be that seat's turn."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    seen = Seen(view)
    if seen.drawing:
        return _draw(seen, level, rng)
    if level == EASY:
        return _easy_play(seen, rng)
    plan = seen.plan()
    if level == HARD and _holds_for_rummy(seen, plan):
        return Discard(_best_for_the_hand(seen, list(plan.left))[0])
    step = first_step(plan, seen)
    if step is not None:
        return step
    if level == HARD:
        return Discard(_best_for_the_hand(seen, list(plan.left))[0])
    return Discard(_discard_choice(seen, list(plan.left), careful=False))


def _holds_for_rummy(seen: Seen, plan: Plan) -> bool:
    """Whether to keep the plan's melds in hand this turn, to go rummy later (all at once,
    which doubles the winner's points): only while nothing was laid in an earlier turn, the
    plan cannot go out now, and nobody is close to going out.  Held melds also give the
    others nothing to lay off on.  With one meld a turn, rummy is out of reach; in block
    rummy near the stock's end, held melds would be paid for."""
    rules = seen.rules
    if not rules.rummy_doubles or rules.one_meld_per_turn or seen.played_before:
        return False
    if not plan.places_anything or seen.melds_this_turn or (plan.score and plan.score[0]):
        return False
    if seen.block_near:
        return False
    return seen.others_fewest >= HOLD_OTHERS


def first_step(plan: Plan, seen: Seen) -> Action | None:
    """The plan's next action.  When the plan goes out and the card just taken from the
    pile is among its cards, that card goes first: left for last, it would be the only
    card in hand, which may not be discarded, and the engine refuses such a step."""
    if seen.taken is not None and not plan.left:
        step = _taken_first(plan, seen, seen.taken)
        if step is not None:
            return step
    if plan.melds:
        meld = plan.melds[0]
        return MeldCards(Group(meld.cards, meld.joker_readings))
    if plan.layoffs:
        index, card, reading = plan.layoffs[0]
        return LayOff(index, Group((card,), (reading,) if reading else ()))
    return None


def _taken_first(plan: Plan, seen: Seen, taken: Card) -> Action | None:
    for meld in plan.melds:
        if taken in meld.cards:
            return MeldCards(Group(meld.cards, meld.joker_readings))
    for index, card, _ in plan.layoffs:
        if card != taken:
            continue
        if index > len(seen.table):  # onto a new meld: make that meld first
            meld = plan.melds[index - len(seen.table) - 1]
            return MeldCards(Group(meld.cards, meld.joker_readings))
        # Everything the plan lays off on that meld, in one action (it may need the
        # others first).
        cards = tuple(c for i, c, _ in plan.layoffs if i == index)
        readings = tuple(r for i, c, r in plan.layoffs if i == index and c.is_joker)
        return LayOff(index, Group(cards, readings if any(readings) else ()))
    return None


# --- drawing ---------------------------------------------------------------------------------


def _draw(seen: Seen, level: str, rng: random.Random) -> Action:
    top = seen.top
    if top is None:
        return Draw()
    if level == EASY:
        melds = candidate_melds([*seen.hand, top], seen.rules)
        if any(top in m.cards for m in melds) and rng.random() < 0.7:
            return Take()
        return Draw()
    if level == HARD and seen.pile is not None:
        deep = _deep_pickup(seen)
        if deep is not None:
            return deep
    with_top = seen.plan([*seen.hand, top], taken=top)
    used = list(with_top.left).count(top) < [*seen.hand, top].count(top)
    if used or top.is_joker:
        return Take()
    # Never taken only to keep it for a meld to come: a card from the stock may be thrown
    # again, so it is worth at least what the hand is worth now, and the known card rarely
    # beats it (measured: taking for the hand's promise cost the hard bot ~10 pp of hands won).
    return Draw()


def _deep_pickup(seen: Seen) -> Action | None:
    """A card from the spread pile (at most six deep) that the best plan melds or lays off at
    once, when the plan leaves no more cards in hand than a draw from the stock would."""
    assert seen.pile is not None
    drawn = len(seen.plan().left) + 1  # at most, after a draw from the stock
    for depth in range(2, min(6, len(seen.pile)) + 1):
        card = seen.pile[-depth]
        picked = seen.pile[-depth:]
        plan = seen.plan([*seen.hand, *picked])
        if len(plan.left) > drawn:
            # The cards above would stay in hand: a turn further from going out (measured,
            # 1,000 hands against normal: -5.5 pp hands won digging regardless, +5.9 pp so).
            continue
        for meld in plan.melds:
            if card in meld.cards:
                return Take(card, meld=Group(meld.cards, meld.joker_readings))
        if seen.rules.lay_off_after_own_meld and not seen.melded:
            continue
        for index, laid, reading in plan.layoffs:
            if laid == card and index <= len(seen.table) and reading is None:
                try:  # the plan may lay it off only after another card
                    lay_off(seen.table[index - 1], (card,), seen.rules)
                except InvalidMeld:
                    continue
                return Take(card, onto=index)
    return None


# --- playing ---------------------------------------------------------------------------------


def _easy_play(seen: Seen, rng: random.Random) -> Action:
    limits = seen.limits()
    if limits.new_melds != 0:
        for meld in candidate_melds(seen.hand, seen.rules):
            left = list(seen.hand)
            for card in meld.cards:
                left.remove(card)
            if _keeps_enough(left, limits):
                return MeldCards(Group(meld.cards, meld.joker_readings))
    if rng.random() < 0.3:
        plan = seen.plan()
        if plan.layoffs and not plan.melds:
            step = first_step(plan, seen)
            assert step is not None
            return step
    high = sorted(
        (c for c in seen.hand if _may_throw(c, seen.hand, seen.taken)),
        key=lambda c: -card_points(c, seen.rules),
    )
    return Discard(rng.choice(high[:3]))


def _keeps_enough(left: list[Card], limits: Limits) -> bool:
    if len(left) < limits.keep:
        return False
    return not left or any(_may_throw(c, left, limits.not_discard) for c in left)


def _may_throw(card: Card, hand: Sequence[Card], taken: Card | None) -> bool:
    return card != taken or list(hand).count(card) > 1


def _best_for_the_hand(
    seen: Seen, hand: list[Card], taken: Card | None = None
) -> tuple[Card, float]:
    """The discard that leaves the most promising hand (outlook.promise), never a joker nor a
    card someone could lay off on the table when another will do; and that hand's promise.
    With one meld a turn and few cards left, the draws that would go out next turn count
    too."""
    taken = taken or seen.taken
    allowed = [c for c in hand if _may_throw(c, hand, taken)]
    best: tuple[float, str, Card] | None = None
    for card in set(allowed):
        rest = list(hand)
        rest.remove(card)
        value = seen.promise(rest)
        if seen.rules.one_meld_per_turn and len(rest) <= NEXT_OUT_CARDS:
            value += NEXT_OUT_WEIGHT * _ways_out(seen, rest)
        if card.is_joker:
            value -= 100
        if _fits_table(card, seen.table):
            value -= 12
        if best is None or (value, str(card)) > best[:2]:
            best = (value, str(card), card)
    assert best is not None
    return best[2], best[0]


def _discard_choice(seen: Seen, hand: list[Card], *, careful: bool) -> Card:
    """The card least worth keeping: points, less for being near other cards; the careful
    bot also keeps back what others could lay off on the table, and jokers."""

    def worth_throwing(card: Card) -> float:
        if card.is_joker:
            return -100.0
        score = card_points(card, seen.rules) - 6 * min(_closeness(card, hand), 2)
        if careful:
            if _fits_table(card, seen.table):
                score -= 15
            score -= 3 * _closeness(card, hand)
        return score

    allowed = [c for c in hand if _may_throw(c, hand, seen.taken)]
    return max(allowed, key=lambda c: (worth_throwing(c), str(c)))


def _closeness(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards make a near meld with ``card``: same rank, or same suit within
    two ranks."""
    if card.is_joker:
        return 0
    near = 0
    for other in hand:
        if other == card or other.is_joker:
            continue
        if other.rank == card.rank or (
            other.suit == card.suit and abs(other.rank - card.rank) <= 2
        ):
            near += 1
    return near


def _ways_out(seen: Seen, hand: list[Card]) -> int:
    """How many unseen cards, drawn next turn, would let ``hand`` go out under one meld a
    turn (the only rule it is asked under): one new meld, lay-offs, the last card discarded."""
    rules = seen.rules
    limits = Limits(1, rules.lay_off_after_own_meld, 1 if rules.final_discard else 0)
    return sum(
        1
        for card in seen.unseen
        if len(best_plan([*hand, card], seen.table, rules, limits, seen.melded).left) <= 1
    )


def _fits_table(card: Card, table: Sequence[Meld]) -> bool:
    for meld in table:
        if meld.kind == SET and meld.rank == card.rank and len(meld.cards) < 4:
            return True
        if meld.kind == RUN and meld.suit == card.suit:
            ends = (meld.stands[0].rank, meld.stands[-1].rank)
            if card.rank in (ends[0] - 1, ends[1] + 1):
                return True
    return False
