"""The tile rummy turn by turn: ``new_game``, ``apply`` and ``replay``.

``apply`` copies the state and changes only the copy; a refusal raises before anything is
returned, so a refused action changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalAction, InvalidAction, NotYourTurn
from ..tiles import Tile, full_set, remove_tiles, sort_key
from . import events as ev
from .actions import Action, Draw, Play, Timeout, parse_action
from .arrangement import judge
from .events import Event
from .rules import START_RANDOM, STOCK_END_NOW, Rules
from .scoring import final_result
from .state import BLOCKED, OUT, STOCK_OUT, State

MIN_PLAYERS = 2
MAX_PLAYERS = 4


def rng_for(state: State) -> random.Random:
    """A fresh generator for the next random event of this game, seeded from the game's seed
    and a counter kept in the state, so a replay from the seed repeats every shuffle."""
    state.shuffles += 1
    return random.Random(f"{state.seed}/{state.shuffles}")


def new_game(
    rules: Rules, seats: int | Sequence[str], seed: int | str, dealer: int | None = None
) -> State:
    """Decide who starts, shuffle and deal ``rules.rack_size`` tiles to each seat.

    ``dealer`` is for a series: the seat after it starts, whatever the starting rule, so the
    start passes round the table from game to game.  The opening draw is kept in the state
    only when it decided who starts."""
    names = [f"Player {i + 1}" for i in range(seats)] if isinstance(seats, int) else list(seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidAction("player-count", least=MIN_PLAYERS, most=MAX_PLAYERS)
    players = len(names)
    if dealer is not None and not (
        isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < players
    ):
        raise InvalidAction("no-seat", seat=repr(dealer))
    state = State(rules=rules, seats=names, seed=str(seed), stock=[], racks=[[] for _ in names])
    # Every random step always happens, so the deal is the same whoever starts.
    first, draws = _opening_draw(rng_for(state), players)
    if rules.starting_player == START_RANDOM:
        first, draws = rng_for(state).randrange(players), []
    if dealer is not None and (dealer + 1) % players != first:
        first, draws = (dealer + 1) % players, []
    tiles = full_set()
    rng_for(state).shuffle(tiles)
    for seat in range(players):
        rack = [tiles.pop() for _ in range(rules.rack_size)]
        state.racks[seat] = sorted(rack, key=sort_key)
    state.stock = tiles
    state.first_player = first
    state.turn = first
    state.opening_draws = draws
    state.melded = [False] * players
    return state


def _opening_draw(rng: random.Random, players: int) -> tuple[int, list[list[str | None]]]:
    """Everyone draws a tile and the highest number starts.  A joker has no number: it is put
    aside and that player draws again.  Players tied for the highest draw again, the others
    sit out (``None``), until one is highest."""
    pool = full_set()
    rng.shuffle(pool)
    contenders = list(range(players))
    rounds: list[list[str | None]] = []
    while True:
        drawn: list[Tile | None] = [None] * players
        for seat in contenders:
            tile = pool.pop()
            while tile.is_joker:
                tile = pool.pop()
            drawn[seat] = tile
        rounds.append([None if t is None else str(t) for t in drawn])
        best = max(t.number for t in drawn if t is not None)
        contenders = [s for s in contenders if (t := drawn[s]) is not None and t.number == best]
        # Every number has eight tiles, so a tie can only repeat a few times; the pool is
        # never exhausted, but stop with the first tied seat should it be.
        if len(contenders) == 1 or len(pool) < players + 2:
            return contenders[0], rounds


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
    new = state.copy()
    log: list[Event] = []
    if isinstance(action, Play):
        _play(new, seat, action, log)
    elif isinstance(action, Draw):
        _no_play(new, seat, 1, log, [])
    elif isinstance(action, Timeout):
        log.append(Event(ev.TIME_UP, seat))
        _no_play(new, seat, new.rules.penalty_tiles, log, [{"code": "time-up"}])
    else:
        raise InvalidAction("unknown-action", action=repr(action))
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


def _play(state: State, seat: int, action: Play, log: list[Event]) -> None:
    judgement = judge(state.table, state.racks[seat], state.melded[seat], action, state.rules)
    if not judgement.ok:
        _no_play(state, seat, state.rules.penalty_tiles, log, judgement.faults)
        return
    rack = remove_tiles(state.racks[seat], judgement.placed)
    assert rack is not None  # judge refused tiles the rack lacks
    state.racks[seat] = rack
    state.table = judgement.table
    state.melded[seat] = True
    state.passes = 0
    params: dict[str, Any] = {
        "tiles": [str(t) for t in judgement.placed],
        "count": len(judgement.placed),
        "table": [m.notation() for m in judgement.table],
    }
    if judgement.first_melds is not None:
        params["first_melds"] = judgement.first_melds
    log.append(Event(ev.PLAYED, seat, params))
    if not rack:
        log.append(Event(ev.WENT_OUT, seat))
        _finish(state, OUT, log)
        return
    _next_turn(state)


def _no_play(
    state: State, seat: int, draw: int, log: list[Event], faults: list[dict[str, Any]]
) -> None:
    """A turn that ends with no tile played: a draw, or the penalty for a faulty turn (the
    table stays as it was, which is putting every tile back)."""
    if not state.stock:
        if state.rules.stock_exhausted == STOCK_END_NOW and draw > 0:
            if faults:
                log.append(Event(ev.PENALTY, seat, {"faults": faults, "count": 0}))
            _finish(state, STOCK_OUT, log)
            return
        state.passes += 1
    drawn = [state.stock.pop() for _ in range(min(draw, len(state.stock)))]
    state.racks[seat] = sorted([*state.racks[seat], *drawn], key=sort_key)
    secret = {"tiles": [str(t) for t in drawn]} if drawn else {}
    if faults:
        params = {"faults": faults, "count": len(drawn)}
        log.append(Event(ev.PENALTY, seat, params, secret, (seat,)))
    elif drawn:
        log.append(Event(ev.DREW, seat, {"count": len(drawn)}, secret, (seat,)))
    else:
        log.append(Event(ev.PASSED, seat))
    if state.passes >= state.players:
        _finish(state, BLOCKED, log)
        return
    _next_turn(state)


def _next_turn(state: State) -> None:
    state.turn = (state.turn + 1) % state.players
    state.turn_number += 1


def _finish(state: State, reason: str, log: list[Event]) -> None:
    state.result = final_result(state.racks, state.rules, reason)
    log.append(
        Event(
            ev.GAME_OVER,
            None,
            {
                "reason": reason,
                "winner": state.result.winner,
                "rack_totals": list(state.result.rack_totals),
                "scores": list(state.result.scores),
            },
        )
    )
