"""Sets and runs of cards, and laying off on them: shared by the card rummies (Basic Rummy,
Thai Rummy).

A set is three or four cards of one rank; a run three or more cards of one suit in sequence,
the ace placed as the rules say (low; high; high or low; round the corner).  The rules are
any object with ``aces`` (an ``ACES_*`` code) and ``long_melds`` (False: melds of 3 or 4 cards
only), as each game's ``Rules`` has.  A joker (rules with
jokers) stands for one card, fixed when it is melded: it is never replaced, so a meld keeps
each joker's reading for good and a lay-off must fit around it.  As on a Romanian table, a
meld holds at least twice as many natural cards as jokers.

When a joker's reading is not given, the reading that keeps the cards in the order written
is taken; failing that, the joker sits as high in the run as it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from .cards import JOKER, SUITS, Card, parse_card
from .errors import InvalidMeld

# How aces sit in runs.
ACES_LOW = "low"  # A23 only (Basic Rummy, 004)
ACES_HIGH = "high"  # QKA only, 2 always low (Thai Rummy, 003)
ACES_HIGH_OR_LOW = "high-or-low"  # A23 or QKA, never KA2
ACES_AROUND = "round-the-corner"  # runs wrap: KA2, QKA23 (001, "round the corner rummy")


class Rules(Protocol):
    """What the meld rules need of a game's rules."""

    @property
    def aces(self) -> str: ...

    @property
    def long_melds(self) -> bool: ...


RUN = "run"
SET = "set"
MIN_MELD = 3
MAX_SET = 4
SHORT_MELD_LIMIT = 4  # melds of 3 or 4 cards only, when rules.long_melds is off


@dataclass(frozen=True, slots=True)
class Meld:
    """``cards`` in table order (a run from its low end); ``stands`` the card each one is,
    a joker's reading in its place."""

    kind: str
    cards: tuple[Card, ...]
    stands: tuple[Card, ...]

    @property
    def joker_readings(self) -> tuple[Card, ...]:
        return tuple(s for c, s in zip(self.cards, self.stands, strict=True) if c.is_joker)

    @property
    def suit(self) -> str:
        return self.stands[0].suit

    @property
    def rank(self) -> int:
        return self.stands[0].rank

    def notation(self) -> str:
        return " ".join(
            f"{c}={s}" if c.is_joker else str(c)
            for c, s in zip(self.cards, self.stands, strict=True)
        )

    def to_text(self) -> str:
        return f"{self.kind} {self.notation()}"

    @classmethod
    def from_text(cls, text: str) -> Meld:
        """The meld ``to_text`` wrote; stored data, so it is not judged again."""
        kind, *words = text.split()
        cards, stands = [], []
        for word in words:
            head, _, reading = word.partition("=")
            card = parse_card(head)
            cards.append(card)
            stands.append(parse_card(reading) if card.is_joker else card)
        if kind not in (RUN, SET):
            raise ValueError(f"not a stored meld: {text!r}")
        return cls(kind, tuple(cards), tuple(stands))


def meld_view(meld: Meld) -> dict[str, Any]:
    """A meld as the views show it (JSON-ready)."""
    return {
        "kind": meld.kind,
        "cards": [str(c) for c in meld.cards],
        "as": [str(s) for s in meld.stands],
        "notation": meld.notation(),
    }


def classify(cards: Sequence[Card], rules: Rules, jokers_as: Sequence[Card | None] = ()) -> Meld:
    """The meld ``cards`` make, or ``InvalidMeld`` with a code saying why.

    ``jokers_as`` lines up with the jokers in ``cards``: a card fixes that joker's reading,
    None (or a short list) leaves it free."""
    cards = list(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    fixed = [r for r in jokers_as if r is not None]
    if len(cards) < MIN_MELD:
        raise InvalidMeld("meld-too-short", count=len(cards))
    if not rules.long_melds and len(cards) > SHORT_MELD_LIMIT:
        raise InvalidMeld("meld-too-long", count=len(cards), most=SHORT_MELD_LIMIT)
    if any(r.is_joker for r in fixed) or len(jokers_as) > jokers:
        raise InvalidMeld("bad-joker-reading")
    if 2 * jokers > len(naturals):
        raise InvalidMeld("too-many-jokers", jokers=jokers, naturals=len(naturals))
    if len(set(naturals)) != len(naturals):
        raise InvalidMeld("card-twice")
    # At least two naturals (the joker ratio): one rank makes a set, else it must be a run.
    if _same_rank(naturals):
        return _as_set(cards, naturals, fixed)
    return _as_run(cards, naturals, fixed, rules)


def _same_rank(naturals: list[Card]) -> bool:
    return len({c.rank for c in naturals}) == 1


def _as_set(cards: list[Card], naturals: list[Card], fixed: list[Card]) -> Meld:
    rank = naturals[0].rank
    if len(cards) > MAX_SET:
        raise InvalidMeld("set-too-big", count=len(cards), most=MAX_SET)
    missing = [Card(s, rank) for s in SUITS if Card(s, rank) not in naturals]
    if any(r not in missing for r in fixed) or len(set(fixed)) != len(fixed):
        raise InvalidMeld("bad-joker-reading")
    free = iter(r for r in missing if r not in fixed)
    readings = iter(fixed)
    stands = []
    for card in cards:
        if card.is_joker:
            stands.append(next(readings, None) or next(free))
        else:
            stands.append(card)
    return Meld(SET, tuple(cards), tuple(stands))


def _as_run(cards: list[Card], naturals: list[Card], fixed: list[Card], rules: Rules) -> Meld:
    suits = {c.suit for c in naturals}
    if len(suits) != 1:
        raise InvalidMeld("mixed-suits")
    (suit,) = suits
    if any(r.suit != suit for r in fixed):
        raise InvalidMeld("bad-joker-reading")
    fits = [w for w in windows(len(cards), rules) if _fits(w, naturals, fixed)]
    if not fits:
        raise InvalidMeld("not-in-sequence")
    written = [c.rank if not c.is_joker else None for c in cards]
    chosen = next((w for w in fits if _in_written_order(w, written)), fits[-1])
    jokers_left = len(cards) - len(naturals)
    table_cards: list[Card] = []
    stands: list[Card] = []
    for rank in chosen:
        card = Card(suit, rank)
        stands.append(card)
        table_cards.append(card if card in naturals else JOKER)
    assert table_cards.count(JOKER) == jokers_left
    return Meld(RUN, tuple(table_cards), tuple(stands))


def windows(length: int, rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Every run of ``length`` ranks the aces rule allows, low to high."""
    return _windows(length, rules.aces)


@cache
def _windows(length: int, aces: str) -> tuple[tuple[int, ...], ...]:
    if aces == ACES_AROUND:
        if length > 13:
            return ()
        return tuple(
            tuple((start - 1 + i) % 13 + 1 for i in range(length)) for start in range(1, 14)
        )
    top = 14 if aces in (ACES_HIGH_OR_LOW, ACES_HIGH) else 13
    first = 2 if aces == ACES_HIGH else 1
    found = []
    for start in range(first, top - length + 2):
        ranks = tuple(1 if r == 14 else r for r in range(start, start + length))
        if len(set(ranks)) == length:
            found.append(ranks)
    return tuple(found)


def _fits(window: tuple[int, ...], naturals: list[Card], fixed: list[Card]) -> bool:
    natural_ranks = Counter(c.rank for c in naturals)
    if any(natural_ranks[r] > 1 for r in natural_ranks):
        return False
    if not set(natural_ranks) <= set(window):
        return False
    open_ranks = set(window) - set(natural_ranks)
    return all(r.rank in open_ranks for r in fixed) and len({r.rank for r in fixed}) == len(fixed)


def _in_written_order(window: tuple[int, ...], written: list[int | None]) -> bool:
    return all(w is None or w == r for w, r in zip(written, window, strict=True))


def lay_off(
    meld: Meld, added: Sequence[Card], rules: Rules, jokers_as: Sequence[Card | None] = ()
) -> Meld:
    """``meld`` with ``added`` laid off on it, every joker already there keeping its reading;
    ``InvalidMeld`` when they do not fit."""
    readings: list[Card | None] = list(meld.joker_readings)
    added_jokers = sum(c.is_joker for c in added)
    readings += [*jokers_as, *[None] * (added_jokers - len(jokers_as))][:added_jokers]
    grown = classify([*meld.cards, *added], rules, readings)
    if grown.kind != meld.kind:
        raise InvalidMeld("does-not-fit")
    return grown
