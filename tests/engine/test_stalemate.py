"""The end with no winner: when the wall would be rebuilt, the game ends only if no tile off
the table (the wall, the row after its first tile, any rack) can ever be laid; the exposed
tile counts for a player who could go out with it.  A safety cap on rebuilds in a row with
nothing laid is an option."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction
from games.engine.remi import REMI, apply
from games.engine.remi import events as ev
from games.engine.remi.moves import meld_candidates
from games.engine.remi.scenario import position
from games.engine.remi.stalemate import can_still_lay, live_tiles
from games.engine.tiles import full_set
from tests.scale import examples

from .helpers import bag, kinds, play, texts
from .properties import layable_off_the_table

# A run that can take nothing more, not even a Joly (both 1s are in it).
CLOSED = ("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B1", 0)


def stuck_table(**kw):
    # Every meld is closed and no three tiles off the table make a meld: K5 Y9 R7 R8.
    kw.setdefault("exposed", "K13")
    return position(["K5", "Y9"], wall="", discards="B2 R7 R8", melds=[CLOSED], melded=[0, 1], **kw)


def test_a_table_where_nothing_can_ever_be_laid_ends_at_the_rebuild():
    state = stuck_table()
    assert not can_still_lay(state)
    state, events = apply(state, 0, "draw")
    assert kinds(events) == [ev.NO_WINNER]
    assert texts(events, ["Ana", "Bogdan"]) == [
        "No tile left off the table can ever be laid: the game ends with no winner."
    ]
    assert state.phase == "over" and state.result.winner is None
    assert state.rebuilds == 0  # no rebuild: it could change nothing


def test_the_first_tile_of_the_row_is_not_counted():
    # B2 opened the row: it can never be taken, so it would not help even if it fitted.
    state = position(["K5", "Y9"], discards="R10 R7 R8", melds=[("R11 R12 R13", 0)], melded=[0, 1])
    assert live_tiles(state) == bag("K5 Y9 R7 R8")
    assert not can_still_lay(state)


def winnable_after_three_rebuilds(rules=REMI):
    # R7 fits Ana's run, but it sits in the row about to be reshuffled; both players draw and
    # discard it back twice before Ana lays it (nothing else moves).
    return position(
        ["K5", "Y9"],
        rules=rules,
        wall="",
        discards="B2 R7",
        melds=[("R4 R5 R6", 0), CLOSED],
        melded=[0, 1],
    )


def test_a_game_that_can_still_be_won_goes_on_through_idle_rebuilds():
    state = winnable_after_three_rebuilds()
    for seat in (0, 1):
        state, events = play(state, (seat, "draw"))
        assert kinds(events)[:2] == [ev.REBUILT, ev.DREW]
        assert str(state.racks[seat][-1]) == "R7"
        state, _ = play(state, (seat, "discard R7"))
    state, events = play(state, (0, "draw"))  # the old cut-off ended the game here
    assert state.rebuilds == 3 and state.idle_rebuilds == 3
    state, events = play(state, (0, "add 0 R7"), (0, "discard K5"))
    assert state.result.winner == 0
    assert state.idle_rebuilds == 0


def test_the_safety_cap_ends_a_game_that_could_go_on():
    state = winnable_after_three_rebuilds(REMI.with_options(max_idle_rebuilds=2))
    for seat in (0, 1):
        state, _ = play(state, (seat, "draw"), (seat, "discard R7"))
    assert can_still_lay(state)
    state, events = play(state, (0, "draw"))
    assert kinds(events) == [ev.NO_WINNER]
    assert texts(events, ["Ana", "Bogdan"]) == [
        "The wall ran out again with nothing laid: the game ends with no winner."
    ]
    assert state.rebuilds == 2


def test_laying_a_tile_resets_the_idle_rebuild_count():
    state = position(
        ["K5 R6 R9", "Y9"],
        wall="",
        discards="B2 Y7 Y8",
        melds=[("R3 R4 R5", 1)],
        melded=[0, 1],
    )
    state, _ = apply(state, 0, "draw")
    assert state.idle_rebuilds == 1
    state, _ = apply(state, 0, "add 0 R6")
    assert state.idle_rebuilds == 0
    assert state.rebuilds == 1


def test_each_way_of_laying_keeps_the_game_alive():
    base = {"melded": [0, 1], "discards": "B2", "exposed": "K13"}
    # A tile that extends a table meld, in a rack or in the row.
    assert can_still_lay(position(["K5 R7", "Y9"], melds=[("R4 R5 R6", 0)], **base))
    assert can_still_lay(
        position(["K5", "Y9"], melds=[("R4 R5 R6", 0)], **{**base, "discards": "B2 R3"})
    )
    # The missing colour of a set.
    assert can_still_lay(position(["K5", "Y9 B8"], melds=[("R8 K8 Y8", 0)], **base))
    # Three tiles spread over racks and the wall that make a new meld (a high 1 included).
    state = position(["K12", "K13"], wall="K1", melds=[CLOSED], **base)
    assert can_still_lay(state)
    # A Joly with any two tiles that a Joly completes.
    assert can_still_lay(position(["J R2", "R4"], melds=[CLOSED], **base))
    assert can_still_lay(position(["J R2", "Y2"], melds=[CLOSED], **base))
    # Nothing of the sort.
    assert not can_still_lay(position(["R2 K5", "Y9"], melds=[CLOSED], **base))


def test_a_joly_swap_keeps_the_game_alive_only_with_a_meld_for_the_freed_joly():
    base = {"melded": [0, 1], "discards": "B2", "exposed": "K13"}
    run = [("R5 J=R6 R7 R8 R9 R10 R11 R12 R13", 0), ("R1 R2 R3 R4", 1), CLOSED]
    # R6 frees the Joly; K8 and Y8 meld with it.
    assert can_still_lay(position(["R6 K8", "Y8"], melds=run, **base))
    # R6 frees it, but no two tiles make a meld with it.
    assert not can_still_lay(position(["R6 K8", "Y3"], melds=run, **base))


def test_a_joly_with_a_tile_beyond_a_run_that_holds_its_share_of_jolys():
    # B4 B5 J=B6 B7 may take one more Joly only with a numbered tile: J=B8 B9 makes six.
    base = {"melded": [0, 1], "discards": "B2", "exposed": "K13"}
    melds = [("R4 R5 J=R6 R7", 0), CLOSED]
    assert can_still_lay(position(["J K5", "R9"], melds=melds, **base))
    assert not can_still_lay(position(["J K5", "R11"], melds=melds, **base))


def test_the_exposed_tile_counts_for_a_player_who_could_go_out_with_it():
    # K13 (exposed) would extend K10 K11 K12; only a player holding one tile can lay it and
    # discard the other in the same turn.
    melds = [("K10 K11 K12", 0), CLOSED]
    one_tile = position(["Y9", "R5 Y2"], discards="B2", melds=melds, melded=[0, 1])
    assert can_still_lay(one_tile)
    state, _ = play(one_tile.copy(), (0, "exposed"), (0, "add 0 K13"), (0, "discard Y9"))
    assert state.result.winner == 0
    # Two tiles each that nothing chains onto: nobody can go out with it.
    assert not can_still_lay(
        position(["Y9 R3", "R5 Y2"], discards="B2", melds=melds, melded=[0, 1])
    )
    # Two tiles where the second follows the exposed tile: K13 then K1 (high) go on the run.
    chained = position(["Y9 K1", "R5 Y2"], discards="B2", melds=melds, melded=[0, 1])
    assert can_still_lay(chained)


def test_the_exposed_tile_counts_for_a_first_meld_only_when_it_reaches_the_minimum():
    # Bogdan never melded: K13 with his K11 K12 is 30, short of 50.
    melds = [CLOSED]
    low = position(["Y9", "K11 K12 R5"], discards="B2", melds=melds, melded=[0])
    assert not can_still_lay(low)
    high = position(["Y9", "K11 K12 R5"], discards="B2", melds=melds, melded=[0, 1])
    assert can_still_lay(high)


def random_position(seed: int, live_count: int, meld_count: int, exposed: bool):
    """A table of random melds and a few tiles off it, spread over two racks and the row."""
    rng = random.Random(seed)
    tiles = full_set()
    rng.shuffle(tiles)
    live, rest = tiles[:live_count], tiles[live_count:]
    candidates = meld_candidates(rest[:60], max_length=5)
    rng.shuffle(candidates)
    left = Counter(rest)
    melds = []
    for group in candidates:
        if len(melds) == meld_count:
            break
        if not Counter(group.tiles) - left:
            left -= Counter(group.tiles)
            melds.append((str(group), rng.randrange(2)))
    cut = rng.randrange(1, live_count + 1)
    row_start = rng.randrange(cut, live_count + 1)
    racks = [live[:cut], live[cut:row_start]]
    opener = next(t for t in left.elements() if not t.is_joker)
    left[opener] -= 1
    shown = next((t for t in left.elements() if not t.is_joker), None) if exposed else None
    return position(
        [" ".join(map(str, r)) for r in racks],
        discards=" ".join(map(str, [opener, *live[row_start:]])),
        melds=melds,
        melded=[0, 1],
        exposed=str(shown) if shown else None,
    )


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    live_count=st.integers(min_value=1, max_value=9),
    meld_count=st.integers(min_value=0, max_value=10),
)
def test_the_stuck_test_agrees_with_the_solver_on_random_tables(seed, live_count, meld_count):
    state = random_position(seed, live_count, meld_count, exposed=False)
    assert can_still_lay(state) == layable_off_the_table(state)


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    live_count=st.integers(min_value=1, max_value=9),
    meld_count=st.integers(min_value=0, max_value=10),
)
def test_with_the_exposed_tile_a_stuck_table_is_stuck_for_it_too(seed, live_count, meld_count):
    state = random_position(seed, live_count, meld_count, exposed=True)
    if can_still_lay(state):
        return
    assert not layable_off_the_table(state)
    # Nobody holding a single tile could lay the exposed tile on its own and go out.
    lone = [s for s, r in enumerate(state.racks) if len(r) == 1]
    for seat in lone:
        probe = state.copy()
        probe.turn = seat
        probe.phase = "draw"
        probe, _ = apply(probe, seat, "exposed")
        for index in range(len(probe.melds)):
            with pytest.raises(IllegalAction):
                apply(probe, seat, f"add {index} {state.exposed}")
