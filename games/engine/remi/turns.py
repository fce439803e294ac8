"""Remi Etalat turn by turn: ``new_game`` and ``apply``.

``apply`` copies the state, lets one handler change the copy, and returns it with the events;
a handler that refuses raises before anything is returned, so a rejected action changes
nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from ..core.protocol import rng_for as core_rng_for
from ..core.protocol import seat_names
from ..errors import IllegalAction, InvalidAction, InvalidMeld, NotYourTurn
from ..tiles import Tile, format_tiles, remove_tiles
from . import events as ev
from .actions import (
    Action,
    AddToMeld,
    Declare,
    Discard,
    Draw,
    Exchange,
    Group,
    MeldAction,
    OfferDoubla,
    Pick,
    Ready,
    SwapJoly,
    TakeDiscard,
    TakeExposed,
    Undo,
    parse_action,
)
from .deal import deal, shuffled_tiles
from .events import Event
from .melds import RUN, Meld, classify, extend, free_joker
from .rules import Rules
from .scoring import score_game
from .stalemate import can_still_lay
from .state import (
    DRAW,
    GO_OUT,
    HIGH_LABEL,
    LOW_LABEL,
    OPEN,
    OVER,
    PLAY,
    PRELUDE,
    USE_DISCARD,
    Offer,
    State,
    TableMeld,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 4


def rng_for(state: State) -> random.Random:
    """A fresh generator for the next random event of this game: seeded from the game's seed
    and a counter kept in the state, so a replay from the seed repeats every shuffle."""
    state.shuffles += 1
    return core_rng_for(state.seed, state.shuffles)


def new_game(
    rules: Rules, seats: int | Sequence[str], seed: int | str, dealer: int | None = None
) -> State:
    """Shuffle, build the wall and deal.  ``seats`` are player names (or a count)."""
    names = seat_names(seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidAction("player-count", least=MIN_PLAYERS, most=MAX_PLAYERS)
    players = len(names)
    state = State(
        rules=rules,
        seats=names,
        seed=str(seed),
        dealer=0,
        first_player=0,
        wall=[],
        exposed=None,
        racks=[[] for _ in names],
    )
    # Always draw the random dealer, so the deal that follows is the same whether or not the
    # caller (a series, a replay) names the dealer.
    drawn = rng_for(state).randrange(players)
    if dealer is None:
        dealer = drawn
    if not 0 <= dealer < players:
        raise InvalidAction("no-seat", seat=repr(dealer))
    while True:
        tiles = shuffled_tiles(rng_for(state))
        # A Joly turned up cannot count out the stacks: the table mixes the tiles again.
        if not tiles[-1].is_joker:
            break
    dealt = deal(tiles, players)
    first = (dealer + 1) % players
    racks: list[list[Tile]] = [[] for _ in names]
    for offset, rack in enumerate(dealt.racks):
        racks[(first + offset) % players] = rack
    state.dealer = dealer
    state.first_player = first
    state.turn = first
    state.wall = dealt.wall
    state.exposed = dealt.exposed
    state.exposed_tile = dealt.exposed
    state.racks = racks
    state.melded_on = [None] * players
    state.acted = [False] * players
    state.ready = [False] * players
    state.offers = [None] * players
    state.requests = [None] * players
    state.exchanged = [False] * players
    state.declared = [False] * players
    state.warned = [False] * players
    state.phase = PRELUDE if rules.doubla else OPEN
    return state


def apply(state: State, seat: int, action: Action | str) -> tuple[State, list[Event]]:
    """Play ``action`` for ``seat``; return the new state and what happened.  Never mutates
    ``state``.  Raises InvalidAction, IllegalAction or NotYourTurn, all ValueErrors."""
    if isinstance(action, str):
        action = parse_action(action)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise InvalidAction("no-seat", seat=repr(seat))
    if state.phase == OVER:
        raise IllegalAction("game-over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise InvalidAction("unknown-action", action=repr(action))
    new = state.copy()
    log: list[Event] = []
    new = handler(new, seat, action, log) or new
    return new, log


def replay(
    seed: int | str,
    rules: Rules,
    seats: int | Sequence[str],
    actions: Sequence[tuple[int, Action | str]],
    dealer: int | None = None,
) -> State:
    """Rebuild a game from its seed and its action log of ``(seat, action)`` pairs."""
    state = new_game(rules, seats, seed, dealer)
    for seat, action in actions:
        state, _ = apply(state, seat, action)
    return state


# --- checks shared by the handlers -------------------------------------------------------


def _require_turn(state: State, seat: int, *phases: str) -> None:
    if state.phase == PRELUDE:
        raise IllegalAction("prelude")
    if seat != state.turn:
        raise NotYourTurn(state.turn)
    if state.phase not in phases:
        raise IllegalAction(_PHASE_CODES[state.phase])


_PHASE_CODES = {OPEN: "must-open", DRAW: "must-draw", PLAY: "already-drew", OVER: "game-over"}


def _take_from_rack(state: State, seat: int, tiles: Sequence[Tile]) -> list[Tile]:
    left = remove_tiles(state.racks[seat], tiles)
    if left is None:
        # Name only what is missing, in the order the player named the tiles: "you do not
        # hold R6 R7 R8" when R6 is on the rack sends the player looking for the wrong tile.
        missing = Counter(tiles) - Counter(state.racks[seat])
        raise IllegalAction("not-on-rack", tiles=[str(t) for t in missing.elements()])
    return left


def _keep_a_discard(rack: list[Tile]) -> None:
    if not rack:
        raise IllegalAction("keep-a-discard")


def _classify(group: Group, rules: Rules) -> Meld:
    try:
        return classify(group.tiles, rules, group.designations())
    except InvalidMeld as exc:
        raise IllegalAction("invalid-meld", fault=exc.as_data()) from None


def _meld_for(state: State, index: int) -> TableMeld:
    if not 0 <= index < len(state.melds):
        raise InvalidAction("no-meld", meld=index)
    return state.melds[index]


def _has_melded(state: State, seat: int) -> bool:
    return state.melded_on[seat] is not None


def _first_meld_turn(state: State, seat: int) -> bool:
    return state.melded_on[seat] == state.turn_number


def _new_table_meld(meld: Meld, seat: int, credits: dict[int, int] | None = None) -> TableMeld:
    """A meld laid by ``seat``; a Joly is credited to ``seat`` unless ``credits`` maps its slot
    to whoever melded it first."""
    credits = credits or {}
    return TableMeld(
        meld,
        owners=(seat,) * len(meld.tiles),
        credits=tuple(
            credits.get(i, seat) if t.is_joker else None for i, t in enumerate(meld.tiles)
        ),
        by=seat,
    )


def _slot_key(meld: Meld, index: int) -> object:
    """What identifies a slot across a change of the meld: a run position, or a set colour."""
    if meld.kind == RUN:
        return meld.start + index
    return meld.stands_for[index].colour


def _carry(old: TableMeld, new: Meld, seat: int) -> TableMeld:
    """Owners and Joly credits of ``old`` moved onto ``new``; slots that are new belong to
    ``seat``.  A set's Joly may change the colour it stands for, so Jolys carry in order."""
    real_owner = {
        _slot_key(old.meld, i): o
        for i, (t, o) in enumerate(zip(old.meld.tiles, old.owners, strict=True))
        if not t.is_joker
    }
    old_jokers = [
        (_slot_key(old.meld, i), o, c)
        for i, (t, o, c) in enumerate(zip(old.meld.tiles, old.owners, old.credits, strict=True))
        if t.is_joker
    ]
    owners: list[int] = []
    credits: list[int | None] = []
    for i, tile in enumerate(new.tiles):
        key = _slot_key(new, i)
        if not tile.is_joker:
            owners.append(real_owner.get(key, seat))
            credits.append(None)
            continue
        match = next((j for j in old_jokers if new.kind != RUN or j[0] == key), None)
        if match is None:
            owners.append(seat)
            credits.append(seat)
        else:
            old_jokers.remove(match)
            owners.append(match[1])
            credits.append(match[2])
    return TableMeld(new, tuple(owners), tuple(credits), old.by)


def _announce_low(state: State, seat: int, log: list[Event]) -> None:
    count = len(state.racks[seat])
    if count > state.rules.low_tile_warning:
        state.warned[seat] = False
    elif count and not state.warned[seat]:
        state.warned[seat] = True
        log.append(Event(ev.FEW_TILES, seat, count=count))


def _next_turn(state: State) -> None:
    state.turn = (state.turn + 1) % state.players
    state.turn_number += 1
    state.phase = DRAW
    state.pending = None
    state.pending_tile = None
    state.checkpoint = None


def _finish(
    state: State, winner: int | None, log: list[Event], joly_out: bool = False, why: str = ""
) -> None:
    state.phase = OVER
    state.pending = None
    state.pending_tile = None
    state.checkpoint = None
    state.result = score_game(state, winner, joly_out)
    log.append(Event(ev.WENT_OUT, winner) if winner is not None else Event(ev.NO_WINNER, label=why))


# --- before play -------------------------------------------------------------------------


def _require_prelude(state: State) -> None:
    if not state.rules.doubla:
        raise IllegalAction("doubla-off")
    if state.phase != PRELUDE:
        raise IllegalAction("prelude-over")


def _offer_doubla(state: State, seat: int, action: OfferDoubla, log: list[Event]) -> None:
    _require_prelude(state)
    tile = action.tile
    if state.offers[seat] is not None:
        raise IllegalAction("doubla-made", open=True)
    if state.exchanged[seat] and not state.rules.many_doublas:
        raise IllegalAction("doubla-made")
    if tile.is_joker:
        raise IllegalAction("doubla-joly")
    if state.racks[seat].count(tile) < 2:
        raise IllegalAction("no-pair", tile=str(tile))
    if action.label is not None:
        truth = LOW_LABEL if tile.number in state.rules.low_doubla() else HIGH_LABEL
        if action.label != truth:
            raise IllegalAction("doubla-label", number=tile.number, label=truth)
    state.offers[seat] = Offer(tile, action.label)
    state.ready[seat] = False
    log.append(Event(ev.DOUBLA, seat, label=action.label or "", secret=(str(tile),)))


def _exchange(state: State, seat: int, action: Exchange, log: list[Event]) -> None:
    _require_prelude(state)
    other = action.seat
    if not 0 <= other < state.players or other == seat:
        raise InvalidAction("no-other-seat", seat=other)
    mine, theirs = state.offers[seat], state.offers[other]
    if mine is None:
        raise IllegalAction("no-offer")
    if theirs is None:
        raise IllegalAction("no-offer", other=other)
    if state.ready[seat] and state.requests[other] != seat:
        raise IllegalAction("already-ready", asking=True)
    state.requests[seat] = other
    if state.requests[other] != seat:
        state.ready[other] = False  # give them the chance to answer
        log.append(Event(ev.EXCHANGE_ASKED, seat, other=other))
        return
    for giver, receiver, offer in ((seat, other, mine), (other, seat, theirs)):
        state.racks[giver] = remove_tiles(state.racks[giver], [offer.tile, offer.tile]) or []
        state.racks[receiver] = [*state.racks[receiver], offer.tile, offer.tile]
    for who in (seat, other):
        state.offers[who] = None
        state.requests[who] = None
        state.exchanged[who] = True
    for who in range(state.players):
        if state.requests[who] in (seat, other):
            state.requests[who] = None
    log.append(Event(ev.EXCHANGED, seat, other=other))


def _ready(state: State, seat: int, action: Ready, log: list[Event]) -> None:
    _require_prelude(state)
    if state.ready[seat]:
        raise IllegalAction("already-ready")
    state.ready[seat] = True
    if state.requests[seat] is not None:
        state.requests[seat] = None
    log.append(Event(ev.READY, seat))
    if all(state.ready):
        state.phase = OPEN
        state.offers = [None] * state.players
        state.requests = [None] * state.players
        log.append(Event(ev.START, state.first_player))


def _declare(state: State, seat: int, action: Declare, log: list[Event]) -> None:
    twin = state.exposed_tile
    if state.declared[seat]:
        raise IllegalAction("already-declared")
    if state.acted[seat]:
        raise IllegalAction("declare-too-late")
    if twin is None or twin not in state.racks[seat]:
        raise IllegalAction("no-twin", tile=None if twin is None else str(twin))
    state.declared[seat] = True
    log.append(Event(ev.DECLARED, seat, tiles=(str(twin),)))


# --- starting a turn ---------------------------------------------------------------------


def _open(state: State, seat: int, tile: Tile, log: list[Event]) -> None:
    state.racks[seat] = _take_from_rack(state, seat, [tile])
    state.discards = [tile]
    state.discarded_by = [seat]
    state.acted[seat] = True
    log.append(Event(ev.OPENED, seat, tiles=(str(tile),)))
    _next_turn(state)


def _no_rebuild(state: State, pool: list[Tile]) -> str | None:
    """Why the empty wall is not rebuilt and the game ends with no winner (None: rebuild).
    The reason words the log: "" nothing to rebuild from, "limit" the rebuilds allowed are
    used up, "cap" the safety cap on idle rebuilds, "stuck" no tile can ever be laid."""
    rules = state.rules
    if not pool:
        return ""
    if rules.max_rebuilds is not None and state.rebuilds >= rules.max_rebuilds:
        return "limit"
    if rules.max_idle_rebuilds is not None and state.idle_rebuilds >= rules.max_idle_rebuilds:
        return "cap"
    if not can_still_lay(state):
        return "stuck"
    return None


def _draw(state: State, seat: int, action: Draw, log: list[Event]) -> None:
    _require_turn(state, seat, DRAW)
    if not state.wall:
        pool = state.discards[1:]
        ending = _no_rebuild(state, pool)
        if ending is not None:
            _finish(state, None, log, why=ending)
            return
        rng_for(state).shuffle(pool)
        state.wall = pool
        state.discards = state.discards[:1]
        state.discarded_by = state.discarded_by[:1]
        state.rebuilds += 1
        state.idle_rebuilds += 1
        log.append(Event(ev.REBUILT, count=len(pool)))
    tile = state.wall.pop(0)
    state.racks[seat].append(tile)
    state.acted[seat] = True
    state.phase = PLAY
    log.append(Event(ev.DREW, seat, secret=(str(tile),)))
    _announce_low(state, seat, log)


def _row_unlocked(state: State, seat: int) -> None:
    if len(state.racks[seat]) <= 2:
        raise IllegalAction("row-locked")


def _checkpoint(state: State) -> None:
    snapshot = state.copy()
    snapshot.checkpoint = None
    state.checkpoint = snapshot.to_dict()


def _take_discard(state: State, seat: int, action: TakeDiscard, log: list[Event]) -> None:
    _require_turn(state, seat, DRAW)
    if len(state.discards) < 2:
        raise IllegalAction("first-tile")
    _row_unlocked(state, seat)
    if not _has_melded(state, seat):
        if not state.rules.first_meld_takes_discard:
            raise IllegalAction("not-melded-yet", action="take")
        _checkpoint(state)
        state.pending = USE_DISCARD
        state.pending_tile = state.discards[-1]
    tile = state.discards.pop()
    state.discarded_by.pop()
    state.racks[seat].append(tile)
    state.acted[seat] = True
    state.phase = PLAY
    log.append(Event(ev.TOOK, seat, tiles=(str(tile),)))
    _announce_low(state, seat, log)  # back above three: the next drop is announced again


def _pick(state: State, seat: int, action: Pick, log: list[Event]) -> None:
    _require_turn(state, seat, DRAW)
    if not _has_melded(state, seat):
        raise IllegalAction("not-melded-yet", action="pick")
    _row_unlocked(state, seat)
    index = action.index
    if index == 0:
        raise IllegalAction("first-tile")
    if not 0 < index < len(state.discards):
        raise InvalidAction("no-row-position", position=index)
    row_tile = state.discards[index]
    tiles = action.group.tiles
    if len(tiles) != 3 or tiles[0] != row_tile:
        raise InvalidAction("pick-tiles", position=index, tile=str(row_tile))
    rack = _take_from_rack(state, seat, tiles[1:])
    meld = _classify(action.group, state.rules)
    taken = state.discards[index + 1 :]
    state.discards = state.discards[:index]
    state.discarded_by = state.discarded_by[:index]
    state.racks[seat] = rack + taken
    state.melds.append(_new_table_meld(meld, seat))
    state.acted[seat] = True
    state.phase = PLAY
    state.idle_rebuilds = 0
    log.append(Event(ev.PICKED, seat, tiles=(str(row_tile),), count=len(taken)))
    log.append(Event(ev.MELDED, seat, tiles=(meld.notation(),)))
    _announce_low(state, seat, log)


def _take_exposed(state: State, seat: int, action: TakeExposed, log: list[Event]) -> None:
    _require_turn(state, seat, DRAW)
    if state.exposed is None:
        raise IllegalAction("exposed-gone")
    _checkpoint(state)
    state.pending = GO_OUT
    state.pending_tile = state.exposed
    tile = state.exposed
    state.exposed = None
    state.racks[seat].append(tile)
    state.acted[seat] = True
    state.phase = PLAY
    log.append(Event(ev.TOOK_EXPOSED, seat, tiles=(str(tile),)))


def _undo(state: State, seat: int, action: Undo, log: list[Event]) -> State:
    _require_turn(state, seat, PLAY)
    if state.checkpoint is None:
        raise IllegalAction("nothing-to-undo")
    log.append(Event(ev.UNDONE, seat, tiles=(str(state.pending_tile),)))
    return State.from_dict(state.checkpoint)


# --- during a turn -----------------------------------------------------------------------


def _meld(state: State, seat: int, action: MeldAction, log: list[Event]) -> None:
    _require_turn(state, seat, PLAY)
    every_tile = [t for g in action.groups for t in g.tiles]
    rack = _take_from_rack(state, seat, every_tile)
    melds = [_classify(g, state.rules) for g in action.groups]
    points = sum(m.points for m in melds)
    first = not _has_melded(state, seat)
    if first:
        minimum = state.rules.first_meld_minimum
        if points < minimum:
            raise IllegalAction("first-meld-too-low", points=points, needed=minimum)
        if state.rules.first_meld_needs_run and not any(m.kind == RUN for m in melds):
            raise IllegalAction("first-meld-needs-run")
    if state.pending == USE_DISCARD:
        taken = state.pending_tile
        if taken not in every_tile:
            raise IllegalAction("use-discard", tile=str(taken), action="meld")
        state.pending = None
        state.pending_tile = None
        state.checkpoint = None
    _keep_a_discard(rack)
    state.racks[seat] = rack
    state.melds.extend(_new_table_meld(m, seat) for m in melds)
    state.idle_rebuilds = 0
    if first:
        state.melded_on[seat] = state.turn_number
    log.append(
        Event(
            ev.MELDED, seat, tiles=tuple(m.notation() for m in melds), count=points if first else 0
        )
    )
    _announce_low(state, seat, log)


def _add(state: State, seat: int, action: AddToMeld, log: list[Event]) -> None:
    _require_turn(state, seat, PLAY)
    target = _meld_for(state, action.meld)
    if not _has_melded(state, seat):
        raise IllegalAction("not-melded-yet", action="add")
    if _first_meld_turn(state, seat) and target.by != seat:
        raise IllegalAction("first-meld-turn", action="add")
    rack = _take_from_rack(state, seat, action.group.tiles)
    try:
        grown = extend(target.meld, action.group.tiles, action.group.designations())
    except InvalidMeld as exc:
        raise IllegalAction("cannot-add", fault=exc.as_data()) from None
    _keep_a_discard(rack)
    state.racks[seat] = rack
    state.melds[action.meld] = _carry(target, grown, seat)
    state.idle_rebuilds = 0
    log.append(Event(ev.ADDED, seat, tiles=(str(action.group),), other=action.meld))
    _announce_low(state, seat, log)


def _swap(state: State, seat: int, action: SwapJoly, log: list[Event]) -> None:
    _require_turn(state, seat, PLAY)
    target = _meld_for(state, action.meld)
    if not _has_melded(state, seat):
        raise IllegalAction("not-melded-yet", action="swap")
    if _first_meld_turn(state, seat) and not (
        # Every meld a player has laid was laid in their first-meld turn, so "their own" is
        # "just laid"; taking another player's Joly waits for a later turn.
        state.rules.first_meld_turn_swap and target.by == seat
    ):
        own = state.rules.first_meld_turn_swap
        raise IllegalAction("first-meld-turn", action="swap-own" if own else "swap")
    group = action.group
    if not any(t.is_joker for t in group.tiles):
        raise InvalidAction("swap-needs-joly")
    if len(group.tiles) < 3:
        raise IllegalAction("invalid-meld", fault={"code": "freed-joly-alone"})
    rack_part = list(group.tiles)
    rack_part.remove(next(t for t in group.tiles if t.is_joker))
    rack = _take_from_rack(state, seat, [*action.replacement, *rack_part])
    try:
        freed_from = free_joker(target.meld, action.replacement)
    except InvalidMeld as exc:
        raise IllegalAction("cannot-swap", fault=exc.as_data()) from None
    new_meld = _classify(group, state.rules)
    _keep_a_discard(rack)
    freed_credit = _freed_credit(target, freed_from)
    freed_slot = _freed_slot(new_meld, group)
    state.racks[seat] = rack
    state.melds[action.meld] = _carry(target, freed_from, seat)
    state.idle_rebuilds = 0
    state.melds.append(_new_table_meld(new_meld, seat, {freed_slot: freed_credit}))
    log.append(
        Event(
            ev.SWAPPED,
            seat,
            tiles=(format_tiles(action.replacement),),
            other=action.meld,
        )
    )
    log.append(Event(ev.MELDED, seat, tiles=(new_meld.notation(),)))
    _announce_low(state, seat, log)


def _freed_credit(old: TableMeld, new: Meld) -> int:
    """Who first melded the Joly that left ``old`` (the one whose slot is now a real tile)."""
    joker_slots = [i for i, t in enumerate(old.meld.tiles) if t.is_joker]
    slot = joker_slots[0]
    if old.meld.kind == RUN:
        slot = next((i for i in joker_slots if not new.tiles[i].is_joker), slot)
    credit = old.credits[slot]
    return credit if credit is not None else old.owners[slot]


def _freed_slot(meld: Meld, group: Group) -> int:
    """The slot of the new meld that holds the freed Joly: the first Joly the player wrote."""
    slots = [i for i, t in enumerate(meld.tiles) if t.is_joker]
    designated = group.jokers_as[0] if group.jokers_as else None
    for i in slots:
        if designated is not None and meld.stands_for[i] == designated:
            return i
    return slots[0]


def _discard(state: State, seat: int, action: Discard, log: list[Event]) -> None:
    if state.phase == OPEN:
        _require_turn(state, seat, OPEN)
        _open(state, seat, action.tile, log)
        return
    _require_turn(state, seat, PLAY)
    rack = _take_from_rack(state, seat, [action.tile])
    if state.pending == USE_DISCARD:
        raise IllegalAction("use-discard", tile=str(state.pending_tile), action="discard")
    if state.pending == GO_OUT and rack:
        raise IllegalAction("must-go-out")
    state.racks[seat] = rack
    state.discards.append(action.tile)
    state.discarded_by.append(seat)
    log.append(Event(ev.DISCARDED, seat, tiles=(str(action.tile),)))
    if not rack:
        _finish(state, seat, log, joly_out=action.tile.is_joker)
        return
    _announce_low(state, seat, log)
    _next_turn(state)


# A handler plays one kind of action on the copied state, appending its events; it returns
# a state only when it replaces the copy (undo), else None.
_Handler = Callable[[State, int, Action, list[Event]], State | None]
_HANDLERS: dict[type[Action], _Handler] = {}
_A = TypeVar("_A", bound=Action)


def _register(
    kind: type[_A], handler: Callable[[State, int, _A, list[Event]], State | None]
) -> None:
    """Enter ``handler`` as the one for actions of exactly ``kind``.  The table's value type
    cannot say "takes the action type of its key", so each entry is checked here and
    widened with the one cast; ``apply`` looks a handler up by ``type(action)``, so it only
    ever receives its own kind."""
    _HANDLERS[kind] = cast(_Handler, handler)


_register(Draw, _draw)
_register(TakeDiscard, _take_discard)
_register(Pick, _pick)
_register(TakeExposed, _take_exposed)
_register(Undo, _undo)
_register(MeldAction, _meld)
_register(AddToMeld, _add)
_register(SwapJoly, _swap)
_register(Discard, _discard)
_register(Declare, _declare)
_register(OfferDoubla, _offer_doubla)
_register(Exchange, _exchange)
_register(Ready, _ready)
