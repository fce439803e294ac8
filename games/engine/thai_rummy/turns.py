"""Thai Rummy turn by turn: ``new_game`` and ``apply`` (document 003).

A turn is several actions of one seat: a draw (a card from the stock, or cards from the
discard pile melded at once), any melds and lay-offs while a card stays in hand, then a
discard; with the stock gone a player who does not take from the pile passes instead.
``apply`` copies the state and changes only the copy; a refusal raises before anything is
returned, so a refused action changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..card_melds import Meld, classify, lay_off
from ..cards import Card, remove_cards, shuffled_deck, sort_key
from ..core.events import Event
from ..core.protocol import rng_for, seat_names
from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Pass, Take, parse_action
from .rules import Rules
from .scoring import final_result
from .state import DRAW, OUT, PASSED, PLAY, State

MIN_PLAYERS = 2
MAX_PLAYERS = 4

# Event codes (the presentation words them).
DREW = "drew"  # secret: card
TOOK = "took"  # params: cards (taken from the pile, the deepest first)
MELDED = "melded"  # params: meld (notation), index (from 1)
LAID_OFF = "laid-off"  # params: cards, index, meld (the meld after)
DISCARDED = "discarded"  # params: card
FITTED = "discard-fitted"  # params: card, index (a meld it fitted): -50
PASSED_TURN = "passed"  # params: passes (in a row)
WENT_OUT = "went-out"  # the last card discarded face down; params: fed_by
GAME_OVER = "game-over"  # params: reason, winner, scores


def new_game(
    rules: Rules, seats: int | Sequence[str], seed: int | str, dealer: int | None = None
) -> State:
    """Shuffle, deal one card at a time from the dealer's left, turn the stock's top card up;
    the player left of the dealer (with two, the non-dealer) starts.  ``dealer`` None draws
    one from the seed."""
    names = seat_names(seats)
    players = len(names)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidAction("player-count", least=MIN_PLAYERS, most=MAX_PLAYERS)
    size = rules.hand_size_for(players)
    state = State(rules, names, str(seed), 0, stock=[], discard=[], discarded_by=[], hands=[])
    # Every random step always happens, so the deal is the same whoever deals.
    drawn_dealer = _next_rng(state).randrange(players)
    if dealer is None:
        dealer = drawn_dealer
    if not (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players):
        raise InvalidAction("no-seat", seat=repr(dealer))
    deck = shuffled_deck(0, _next_rng(state))
    hands: list[list[Card]] = [[] for _ in names]
    for _ in range(size):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(deck.pop())
    state.dealer = dealer
    state.hands = [sorted(h, key=sort_key) for h in hands]
    state.discard = [deck.pop()]
    state.discarded_by = [None]
    state.stock = deck
    state.displayed = [[] for _ in names]
    state.turn = (dealer + 1) % players
    state.shown = [False] * players
    state.shown_before = [False] * players
    state.penalties = [0] * players
    return state


def _next_rng(state: State) -> random.Random:
    state.shuffles += 1
    return rng_for(state.seed, state.shuffles)


def apply(state: State, seat: int, action: Action | str) -> tuple[State, list[Event]]:
    """Play ``action`` for ``seat``; return the new state and what happened.  Never mutates
    ``state``.  Raises InvalidAction, IllegalAction (with a code) or NotYourTurn."""
    if isinstance(action, str):
        action = parse_action(action)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise InvalidAction("no-seat", seat=repr(seat))
    if state.over:
        raise IllegalAction("game-over")
    if seat != state.turn:
        raise NotYourTurn(state.turn)
    drawing = isinstance(action, Draw | Take | Pass)
    if drawing and state.phase != DRAW:
        raise IllegalAction("already-drew")
    if not drawing and state.phase == DRAW:
        raise IllegalAction("draw-first")
    new = state.copy()
    log: list[Event] = []
    if isinstance(action, Draw):
        _draw(new, seat, log)
    elif isinstance(action, Take):
        _take(new, seat, action, log)
    elif isinstance(action, Pass):
        _pass(new, seat, log)
    elif isinstance(action, MeldCards):
        _meld(new, seat, action.group, log)
    elif isinstance(action, LayOff):
        _lay_off(new, seat, action.onto, action.group, log)
    elif isinstance(action, Discard):
        _discard(new, seat, action.card, log)
    else:
        raise InvalidAction("unknown-action", action=repr(action))
    return new, log


# --- the start of a turn -----------------------------------------------------------------------


def _draw(state: State, seat: int, log: list[Event]) -> None:
    if not state.stock:
        raise IllegalAction("stock-empty")
    card = state.stock.pop()
    state.hands[seat] = sorted([*state.hands[seat], card], key=sort_key)
    state.phase = PLAY
    state.passes = 0
    log.append(Event(DREW, seat, {}, {"card": str(card)}, (seat,)))


def _pass(state: State, seat: int, log: list[Event]) -> None:
    if state.stock:
        raise IllegalAction("stock-not-empty")
    state.passes += 1
    log.append(Event(PASSED_TURN, seat, {"passes": state.passes}))
    if state.passes >= state.players:
        _finish(state, PASSED, log)
    else:
        _next_turn(state)


def _take(state: State, seat: int, action: Take, log: list[Event]) -> None:
    """The card and every card above it; the card melded at once in a new meld with at least
    one card that was in the hand (and maybe others taken with it)."""
    if action.card not in state.discard:
        raise IllegalAction("not-in-discard-pile", card=str(action.card))
    depth = state.discard.index(action.card)
    picked = state.discard[depth:]
    used = action.meld.cards
    if action.card not in used:
        raise IllegalAction("must-use-picked-card", card=str(action.card))
    if all(c in picked for c in used):
        raise IllegalAction("meld-needs-hand-card")
    hand = remove_cards([*state.hands[seat], *picked], used)
    if hand is None:
        raise IllegalAction("not-in-hand", cards=[str(c) for c in used if c not in picked])
    meld = _judged(used, state)
    if not hand:
        raise IllegalAction("keep-a-card-to-discard")
    top_of = state.discarded_by[-1] if len(picked) == 1 else None
    state.took_top_of = top_of if top_of is not None and top_of != seat else None
    del state.discard[depth:]
    del state.discarded_by[depth:]
    state.phase = PLAY
    state.passes = 0
    log.append(Event(TOOK, seat, {"cards": [str(c) for c in picked]}))
    _place_meld(state, seat, meld, sorted(hand, key=sort_key), log)


# --- melding and laying off --------------------------------------------------------------------


def _judged(cards: Sequence[Card], state: State) -> Meld:
    try:
        return classify(cards, state.rules)
    except InvalidMeld as fault:
        raise IllegalAction(fault.code, **fault.params) from None


def _meld(state: State, seat: int, group: Group, log: list[Event]) -> None:
    hand = _without(state, seat, group.cards)
    meld = _judged(group.cards, state)
    if not hand:
        raise IllegalAction("keep-a-card-to-discard")
    _place_meld(state, seat, meld, hand, log)


def _place_meld(state: State, seat: int, meld: Meld, hand: list[Card], log: list[Event]) -> None:
    state.table.append(meld)
    state.hands[seat] = hand
    state.displayed[seat] = [*state.displayed[seat], *meld.cards]
    state.shown[seat] = True
    log.append(Event(MELDED, seat, {"meld": meld.notation(), "index": len(state.table)}))


def _lay_off(state: State, seat: int, onto: int, group: Group, log: list[Event]) -> None:
    if not 1 <= onto <= len(state.table):
        raise IllegalAction("no-such-meld", index=onto, melds=len(state.table))
    hand = _without(state, seat, group.cards)
    try:
        grown = lay_off(state.table[onto - 1], group.cards, state.rules)
    except InvalidMeld as fault:
        raise IllegalAction("does-not-fit", index=onto, reason=fault.code) from None
    if not hand:
        raise IllegalAction("keep-a-card-to-discard")
    state.table[onto - 1] = grown
    state.hands[seat] = hand
    state.displayed[seat] = [*state.displayed[seat], *group.cards]
    if state.rules.layoff_shows:
        state.shown[seat] = True
    log.append(
        Event(
            LAID_OFF,
            seat,
            {"cards": [str(c) for c in group.cards], "index": onto, "meld": grown.notation()},
        )
    )


def _without(state: State, seat: int, cards: Sequence[Card]) -> list[Card]:
    hand = remove_cards(state.hands[seat], cards)
    if hand is None:
        raise IllegalAction("not-in-hand", cards=[str(c) for c in cards])
    return hand


def fitting_meld(card: Card, table: Sequence[Meld], rules: Rules) -> int | None:
    """The first meld on the table (from 1) ``card`` could extend, or None."""
    for index, meld in enumerate(table, start=1):
        try:
            lay_off(meld, (card,), rules)
        except InvalidMeld:
            continue
        return index
    return None


# --- the end of a turn -------------------------------------------------------------------------


def _discard(state: State, seat: int, card: Card, log: list[Event]) -> None:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("not-in-hand", cards=[str(card)])
    hand = list(hand)
    hand.remove(card)
    state.hands[seat] = hand
    if not hand:
        # Face down: the hand ends.  A card must be kept for this discard, so it is never
        # the "stupid" discard that could have extended a meld.
        state.face_down = card
        log.append(Event(WENT_OUT, seat, {"fed_by": state.took_top_of}))
        _finish(state, OUT, log, winner=seat, fed_by=state.took_top_of)
        return
    fits = fitting_meld(card, state.table, state.rules)
    state.discard.append(card)
    state.discarded_by.append(seat)
    log.append(Event(DISCARDED, seat, {"card": str(card)}))
    if fits is not None:
        state.penalties[seat] += 1
        log.append(Event(FITTED, seat, {"card": str(card), "index": fits}))
    _next_turn(state)


def _next_turn(state: State) -> None:
    seat = state.turn
    state.shown_before[seat] = state.shown[seat]
    state.turn = (seat + 1) % state.players
    state.turn_number += 1
    state.phase = DRAW
    state.took_top_of = None


def _finish(
    state: State,
    reason: str,
    log: list[Event],
    winner: int | None = None,
    fed_by: int | None = None,
) -> None:
    state.result = final_result(
        rules=state.rules,
        reason=reason,
        hands=state.hands,
        displayed=state.displayed,
        shown=state.shown,
        shown_before=state.shown_before,
        penalties=state.penalties,
        winner=winner,
        fed_by=fed_by,
    )
    state.phase = ""
    log.append(
        Event(
            GAME_OVER,
            None,
            {
                "reason": reason,
                "winner": state.result.winner,
                "scores": list(state.result.scores),
            },
        )
    )


def loser(state: State) -> int:
    """Who deals the next hand: the loser of this one — not the player who went out (the
    winner "even if they ultimately have a lower score"), else the lowest score; ties go to
    the first of them from the dealer's left, so the deal moves on when nothing tells the
    players apart."""
    assert state.result is not None
    scores = state.result.scores
    order = [(state.dealer + k) % state.players for k in range(1, state.players + 1)]
    order = [s for s in order if s != state.result.winner]
    return min(order, key=lambda s: scores[s])
