"""Basic Rummy turn by turn: ``new_game`` and ``apply``.

A turn is several actions of one seat: a draw (stock or discard pile), any melds and lay-offs,
then a discard.  ``apply`` copies the state and changes only the copy; a refusal raises before
anything is returned, so a refused action changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..card_melds import Meld, classify, lay_off
from ..cards import Card, remove_cards, shuffled_deck, sort_key
from ..core.events import Event
from ..core.protocol import rng_for, seat_names
from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from .actions import Action, Discard, Draw, Group, LayOff, MeldCards, Take, parse_action
from .rules import STOCK_BLOCK, STOCK_TURN_OVER, Rules
from .scoring import final_result
from .stalemate import nobody_can_finish
from .state import BLOCKED, DRAW, OUT, PLAY, STOCK_TWICE, STUCK, State

MIN_PLAYERS = 2
MAX_PLAYERS = 6

# Event codes (the presentation words them).
DREW = "drew"  # secret: card
TOOK = "took"  # params: cards (taken from the pile, the deepest first)
MELDED = "melded"  # params: meld (notation), index (from 1)
LAID_OFF = "laid-off"  # params: cards, index, meld (the meld after)
DISCARDED = "discarded"  # params: card
RESTOCKED = "restocked"  # params: how (shuffle / turn-over), count, up (the new top card)
WENT_OUT = "went-out"  # params: rummy
GAME_OVER = "game-over"  # params: reason, winner, hand_values, scores, rummy


def _next_rng(state: State) -> random.Random:
    state.shuffles += 1
    return rng_for(state.seed, state.shuffles)


def new_game(
    rules: Rules, seats: int | Sequence[str], seed: int | str, dealer: int | None = None
) -> State:
    """Shuffle, deal one card at a time from the dealer's left, turn one card up; the player
    left of the dealer starts.  ``dealer`` None draws one from the seed."""
    names = seat_names(seats)
    players = len(names)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidAction("player-count", least=MIN_PLAYERS, most=MAX_PLAYERS)
    size = rules.hand_size_for(players)
    if players * size + 1 >= 52 + rules.jokers:
        raise InvalidAction("deck-too-small", players=players, hand_size=size)
    state = State(rules, names, str(seed), 0, stock=[], discard=[], hands=[])
    # Every random step always happens, so the deal is the same whoever deals.
    drawn_dealer = _next_rng(state).randrange(players)
    if dealer is None:
        dealer = drawn_dealer
    if not (isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players):
        raise InvalidAction("no-seat", seat=repr(dealer))
    deck = shuffled_deck(rules.jokers, _next_rng(state))
    hands: list[list[Card]] = [[] for _ in names]
    for _ in range(size):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(deck.pop())
    state.dealer = dealer
    state.hands = [sorted(h, key=sort_key) for h in hands]
    state.discard = [deck.pop()]
    state.stock = deck
    state.turn = (dealer + 1) % players
    state.played_before = [False] * players
    state.melded = [False] * players
    state.turns_taken = [0] * players
    return state


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
    drawing = isinstance(action, Draw | Take)
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
    elif isinstance(action, MeldCards):
        _meld(new, seat, action.group, log)
    elif isinstance(action, LayOff):
        _lay_off(new, seat, action.onto, action.group, log)
    elif isinstance(action, Discard):
        _discard(new, seat, action.card, log)
    else:
        raise InvalidAction("unknown-action", action=repr(action))
    return new, log


# --- drawing ---------------------------------------------------------------------------------


def _draw(state: State, seat: int, log: list[Event]) -> None:
    # Only with the pile turned over (001) does an empty stock wait for a draw: the player
    # might have taken the discard instead.
    if not state.stock and (state.restocks >= state.rules.restocks or not _restock(state, log)):
        _finish(state, STOCK_TWICE, log)
        return
    card = state.stock.pop()
    state.hands[seat] = sorted([*state.hands[seat], card], key=sort_key)
    state.phase = PLAY
    log.append(Event(DREW, seat, {}, {"card": str(card)}, (seat,)))


def _take(state: State, seat: int, action: Take, log: list[Event]) -> None:
    if not state.discard:
        raise IllegalAction("discard-pile-empty")
    if action.card is None:
        card = state.discard.pop()
        state.hands[seat] = sorted([*state.hands[seat], card], key=sort_key)
        state.taken = card
        state.phase = PLAY
        log.append(Event(TOOK, seat, {"cards": [str(card)]}))
        return
    if not state.rules.deep_pickup:
        raise IllegalAction("no-deep-pickup")
    if action.card not in state.discard:
        raise IllegalAction("not-in-discard-pile", card=str(action.card))
    depth = len(state.discard) - 1 - state.discard[::-1].index(action.card)
    picked = state.discard[depth:]
    used = action.meld.cards if action.meld is not None else ()
    if action.meld is not None and action.card not in used:
        raise IllegalAction("must-use-picked-card", card=str(action.card))
    del state.discard[depth:]
    state.hands[seat] = sorted([*state.hands[seat], *picked], key=sort_key)
    state.phase = PLAY
    log.append(Event(TOOK, seat, {"cards": [str(c) for c in picked]}))
    if action.meld is not None:
        _meld(state, seat, action.meld, log)
    else:
        assert action.onto is not None
        _lay_off(state, seat, action.onto, Group((action.card,)), log)


def _restock(state: State, log: list[Event]) -> bool:
    """The discard pile becomes the stock (shuffled, or turned over as it lies) and its top
    card is turned up to start a new pile; False when there is nothing to make it from."""
    pile, state.discard = state.discard, []
    if state.rules.stock_empty == STOCK_TURN_OVER:
        # Turning the face-up pile over puts its first discard on top of the stock.
        state.stock = pile[::-1]
        how = "turn-over"
    else:
        _next_rng(state).shuffle(pile)
        state.stock = pile
        how = "shuffle"
    state.restocks += 1
    if len(state.stock) < 2:
        return False
    state.discard = [state.stock.pop()]
    log.append(
        Event(RESTOCKED, None, {"how": how, "count": len(state.stock), "up": str(state.top)})
    )
    return True


# --- melding and laying off --------------------------------------------------------------------


def _meld(state: State, seat: int, group: Group, log: list[Event]) -> None:
    if state.rules.one_meld_per_turn and state.melds_this_turn >= 1:
        raise IllegalAction("one-meld-a-turn")
    hand = _without(state, seat, group.cards)
    try:
        meld = classify(group.cards, state.rules, group.jokers_as)
    except InvalidMeld as fault:
        raise IllegalAction(fault.code, **fault.params) from None
    _check_what_is_left(state, seat, hand)
    state.table.append(meld)
    state.hands[seat] = hand
    state.melds_this_turn += 1
    state.placed_this_turn = True
    state.melded[seat] = True
    log.append(Event(MELDED, seat, {"meld": meld.notation(), "index": len(state.table)}))
    _out_if_empty(state, seat, log)


def _lay_off(state: State, seat: int, onto: int, group: Group, log: list[Event]) -> None:
    if state.rules.lay_off_after_own_meld and not state.melded[seat]:
        raise IllegalAction("meld-before-laying-off")
    if not 1 <= onto <= len(state.table):
        raise IllegalAction("no-such-meld", index=onto, melds=len(state.table))
    hand = _without(state, seat, group.cards)
    try:
        grown = lay_off(state.table[onto - 1], group.cards, state.rules, group.jokers_as)
    except InvalidMeld as fault:
        raise IllegalAction("does-not-fit", index=onto, reason=fault.code) from None
    _check_what_is_left(state, seat, hand)
    state.table[onto - 1] = grown
    state.hands[seat] = hand
    state.placed_this_turn = True
    log.append(
        Event(
            LAID_OFF,
            seat,
            {"cards": [str(c) for c in group.cards], "index": onto, "meld": grown.notation()},
        )
    )
    _out_if_empty(state, seat, log)


def _without(state: State, seat: int, cards: Sequence[Card]) -> list[Card]:
    hand = remove_cards(state.hands[seat], cards)
    if hand is None:
        raise IllegalAction("not-in-hand", cards=[str(c) for c in cards])
    return hand


def may_go_out(state: State, seat: int) -> bool:
    return not (state.rules.out_from_second_turn and state.turns_taken[seat] == 0)


def _check_what_is_left(state: State, seat: int, hand: list[Card]) -> None:
    """Melding must leave a hand the turn can end with: empty (going out without a final
    discard, when the rules allow it) or holding a card that may be discarded."""
    if not hand:
        if state.rules.final_discard:
            raise IllegalAction("keep-a-card-to-discard")
        if not may_go_out(state, seat):
            raise IllegalAction("out-too-early")
        return
    if len(hand) == 1 and not may_go_out(state, seat):
        raise IllegalAction("out-too-early")
    if not any(may_discard(state, hand, c) for c in hand):
        raise IllegalAction("keep-a-card-to-discard")


def may_discard(state: State, hand: Sequence[Card], card: Card) -> bool:
    """Not the card just taken from the pile (a second copy — a joker — is another card)."""
    return card in hand and (card != state.taken or hand.count(card) > 1)


# --- the end of a turn -------------------------------------------------------------------------


def _discard(state: State, seat: int, card: Card, log: list[Event]) -> None:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("not-in-hand", cards=[str(card)])
    if not may_discard(state, hand, card):
        raise IllegalAction("discard-just-taken", card=str(card))
    if len(hand) == 1 and not may_go_out(state, seat):
        raise IllegalAction("out-too-early")
    hand = list(hand)
    hand.remove(card)
    state.hands[seat] = hand
    state.discard.append(card)
    log.append(Event(DISCARDED, seat, {"card": str(card)}))
    if not _out_if_empty(state, seat, log):
        _next_turn(state, log)


def _out_if_empty(state: State, seat: int, log: list[Event]) -> bool:
    if state.hands[seat]:
        return False
    rummy = not state.played_before[seat]
    log.append(Event(WENT_OUT, seat, {"rummy": rummy}))
    _finish(state, OUT, log, winner=seat, rummy=rummy)
    return True


def _next_turn(state: State, log: list[Event]) -> None:
    seat = state.turn
    state.played_before[seat] = state.played_before[seat] or state.placed_this_turn
    state.turns_taken[seat] += 1
    state.turn = (seat + 1) % state.players
    state.turn_number += 1
    state.phase = DRAW
    state.taken = None
    state.melds_this_turn = 0
    state.placed_this_turn = False
    if not state.stock and state.rules.stock_empty != STOCK_TURN_OVER:
        if state.rules.stock_empty == STOCK_BLOCK:
            _finish(state, BLOCKED, log)
            return
        if state.restocks >= state.rules.restocks or not _restock(state, log):
            _finish(state, STOCK_TWICE, log)
            return
    off_table = [*state.stock, *state.discard, *(c for h in state.hands for c in h)]
    if nobody_can_finish(off_table, state.table, state.rules):
        _finish(state, STUCK, log)


def _finish(
    state: State, reason: str, log: list[Event], winner: int | None = None, rummy: bool = False
) -> None:
    state.result = final_result(state.hands, state.rules, reason, winner, rummy)
    state.phase = ""
    log.append(
        Event(
            GAME_OVER,
            None,
            {
                "reason": reason,
                "winner": state.result.winner,
                "hand_values": list(state.result.hand_values),
                "scores": list(state.result.scores),
                "rummy": state.result.rummy,
            },
        )
    )


def table_meld(state: State, index: int) -> Meld:
    return state.table[index - 1]
