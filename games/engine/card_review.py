"""What the card rummies tell the shared review (``core.review``): a turn is judged once the
card is drawn or taken, and the exact meld and lay-off planner (``card_planner``) says what
could be laid.  The planner tries one choice of new melds after another and keeps the best,
so when the time limit stops it, what it holds is the best found (``exact=False``)."""

from __future__ import annotations

from abc import abstractmethod
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .card_actions import Group, LayOff, MeldCards
from .card_melds import Meld
from .card_planner import Limits, Plan, Points, best_plan_within
from .cards import Card, parse_cards
from .core.budget import Stop
from .core.review import FIRST_MELD, LAY_OFF, MELD, NOTHING, BestPlay, Measure, Reviewer

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Turn:
    """What the planner needs from a seat's view."""

    hand: list[Card]
    table: list[Meld]
    rules: Any
    limits: Limits
    melded: bool
    points: Points


class CardReviewer(Reviewer):
    unit: ClassVar[str] = "cards"

    @abstractmethod
    def turn(self, view: JSON) -> Turn:
        """The planner's inputs as the game's bots read them from the view."""

    @abstractmethod
    def card_points(self, view: JSON) -> Points:
        """What a card on the table is worth (the game's own scoring)."""

    def first_meld(self, turn: Turn) -> bool:
        """Whether laying anything now would be the seat's first meld (by default: it has
        none of its own yet)."""
        return not turn.melded

    def decides(self, view: JSON) -> bool:
        return (
            view["seat"] is not None
            and view["result"] is None
            and view["phase"] == "play"
            and view["turn"] == view["seat"]
        )

    def table(self, view: JSON) -> Measure:
        worth = self.card_points(view)
        cards = [c for m in table_melds(view) for c in m.cards]
        return Measure(len(cards), sum(worth(c) for c in cards))

    def position(self, view: JSON) -> JSON:
        pile = view.get("discard")
        if pile is None:
            pile = [view["discard_top"]] if view.get("discard_top") else []
        return {
            "rack": [str(c) for c in parse_cards(view["hand"] or [])],
            "table": [m["notation"] for m in view["table"]],
            "discards": [str(c) for c in pile],
        }

    def best(self, view: JSON, stop: Stop) -> BestPlay:
        turn = self.turn(view)
        plan, exact = best_plan_within(
            turn.hand, turn.table, turn.rules, turn.limits, turn.melded, turn.points, stop
        )
        return as_best(plan, turn, exact=exact, first=self.first_meld(turn))


def table_melds(view: JSON) -> list[Meld]:
    return [Meld.from_text(f"{m['kind']} {m['notation']}") for m in view["table"]]


def as_best(plan: Plan, turn: Turn, *, exact: bool, first: bool) -> BestPlay:
    placed = list((Counter(turn.hand) - Counter(plan.left)).elements())
    if not placed:
        return BestPlay(Measure(), kind=NOTHING, exact=exact)
    actions = [str(MeldCards(Group(m.cards, m.joker_readings))) for m in plan.melds]
    actions += [
        str(LayOff(index, Group((card,), (reading,) if reading else ())))
        for index, card, reading in plan.layoffs
    ]
    kind = (FIRST_MELD if first else MELD) if plan.melds else LAY_OFF
    points = sum(turn.points(c) for c in placed)
    return BestPlay(
        Measure(len(placed), points),
        tuple(actions),
        tuple(str(c) for c in _in_order(placed, turn.hand)),
        kind,
        exact,
        {"points": points},
    )


def _in_order(cards: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    ordered = []
    for card in hand:
        if left[card]:
            left[card] -= 1
            ordered.append(card)
    return ordered
