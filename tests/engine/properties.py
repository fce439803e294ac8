"""Invariants every Remi position must keep, shared by the property tests and the solver's."""

from __future__ import annotations

import json
import random
from collections import Counter

from games.engine.remi import player_view
from games.engine.remi.melds import RUN, classify
from games.engine.remi.moves import swap_candidates
from games.engine.remi.solver import solve
from games.engine.remi.state import OVER, State
from games.engine.tiles import full_set

ALL_TILES = Counter(full_set())


def tiles_in_play(state: State) -> Counter:
    counted = Counter(state.wall)
    counted.update(state.discards)
    for rack in state.racks:
        counted.update(rack)
    for table_meld in state.melds:
        counted.update(table_meld.meld.tiles)
    if state.exposed is not None:
        counted[state.exposed] += 1
    return counted


def assert_all_tiles_accounted_for(state: State) -> None:
    assert tiles_in_play(state) == ALL_TILES


def assert_table_melds_valid(state: State) -> None:
    for table_meld in state.melds:
        meld = table_meld.meld
        fixed = list(meld.jokers_as) if meld.kind == RUN else None
        again = classify(meld.tiles, state.rules, fixed)
        assert again.kind == meld.kind
        assert sorted(again.tiles) == sorted(meld.tiles)
        assert 2 * meld.joker_count <= len(meld.tiles) - meld.joker_count
        assert len(table_meld.owners) == len(meld.tiles) == len(table_meld.credits)


def with_hidden_tiles_reshuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same position as ``seat`` sees it, with every tile ``seat`` cannot see dealt anew:
    other racks and the wall get a random redistribution of the same hidden tiles."""
    other = state.copy()
    hidden = list(other.wall)
    for i, rack in enumerate(other.racks):
        if i != seat:
            hidden.extend(rack)
    rng.shuffle(hidden)
    other.wall = [hidden.pop() for _ in other.wall]
    for i, rack in enumerate(other.racks):
        if i != seat:
            other.racks[i] = [hidden.pop() for _ in rack]
    other.seed = f"{state.seed}-other"
    other.offers = [
        o if o is None or i == seat else type(o)(rng.choice(other.racks[i] or [o.tile]), o.label)
        for i, o in enumerate(other.offers)
    ]
    return other


def assert_view_hides_secrets(state: State, rng: random.Random) -> None:
    """A seat's view must not change when only what it cannot see changes; spectators see
    no rack; the seed and the wall order never appear."""
    if state.phase == OVER:
        return
    for seat in [*range(state.players), None]:
        view = player_view(state, seat)
        text = json.dumps(view)
        assert "seed" not in text
        if len(state.seed) >= 8:  # short seeds like "3" occur in any JSON by chance
            assert state.seed not in text
        if seat is None:
            assert view["rack"] is None
        probe = with_hidden_tiles_reshuffled(state, -1 if seat is None else seat, rng)
        assert player_view(probe, seat) == view


def layable_off_the_table(state: State) -> bool:
    """Whether some tile off the table (the wall, the row after its first tile, the racks)
    could be laid by a player holding all of them who has melded: the exact solver's answer
    for additions and new melds, and every Joly swap the move generator finds.  The oracle for
    ``stalemate.can_still_lay``, written without it."""
    live = list(state.wall) + list(state.discards[1:])
    for rack in state.racks:
        live.extend(rack)
    if not live:
        return False
    jolys = [t for t in live if t.is_joker]
    numbered = [t for t in live if not t.is_joker]
    plan = solve(
        numbered + jolys[:2], [m.meld for m in state.melds], state.rules, first_meld=False, keep=0
    )
    if plan is not None and plan.tiles > 0:
        return True
    probe = state.copy()
    probe.racks = [list(live)] + [[] for _ in state.racks[1:]]
    probe.melded_on = [0] * state.players
    return bool(swap_candidates(probe, 0))
