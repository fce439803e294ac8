"""Rule 14: an empty wall is rebuilt from the discard row (all but its first tile); when
nothing is left to rebuild from, or the rebuild limit is reached, the game ends with no
winner."""

from __future__ import annotations

from collections import Counter

from games.engine.remi import REMI, apply
from games.engine.remi import events as ev
from games.engine.remi.scenario import position
from games.engine.remi.state import OVER, PLAY

from .helpers import bag, kinds, play, rack, refused, texts

NAMES = ["Ana", "Bogdan"]


def empty_wall(discards: str, rules=REMI, **kw):
    # Bogdan's B4 B5 B6 can still be laid, so the game is not stuck.
    kw.setdefault("melded", [0])
    return position(["R2 R3 K9 Y11", "B4 B5 B6 K12"], rules=rules, discards=discards, **kw)


def test_an_empty_wall_is_rebuilt_from_the_row_but_its_first_tile():
    state = empty_wall("K4 R7 Y9 B13")
    state, events = play(state, (0, "draw"))
    assert kinds(events)[:2] == [ev.REBUILT, ev.DREW]
    assert texts(events, NAMES, 1)[:2] == [
        "The wall was rebuilt from 3 discarded tiles.",
        "Ana drew a tile.",
    ]
    assert [str(t) for t in state.discards] == ["K4"]
    assert state.discarded_by == [empty_wall("K4 R7 Y9 B13").discarded_by[0]]
    drawn = state.racks[0][-1]
    assert rack(state, 0) == bag("R2 R3 K9 Y11") + Counter([drawn])
    assert Counter([*state.wall, drawn]) == bag("R7 Y9 B13")
    assert len(state.wall) == 2
    assert state.rebuilds == 1
    assert state.phase == PLAY
    # The first tile stays where it is and still can never be taken.
    state, _ = play(state, (0, "discard K9"))
    assert [str(t) for t in state.discards] == ["K4", "K9"]


def test_the_rebuilt_wall_is_the_same_on_replay():
    state = empty_wall("K4 R7 Y9 B13 Y1 Y2 R10")
    once, _ = apply(state, 0, "draw")
    again, _ = apply(state, 0, "draw")
    assert once.to_dict() == again.to_dict()


def test_the_first_tile_cannot_be_taken_after_a_rebuild():
    state = empty_wall("K4 R7", melded=[0, 1])
    state, _ = play(state, (0, "draw"))  # rebuilt from R7 alone
    assert [str(t) for t in state.discards] == ["K4"]
    state, _ = play(state, (0, "discard K9"), (1, "take"), (1, "discard B6"))
    assert [str(t) for t in state.discards] == ["K4", "B6"]
    refused(state, 0, "pick 0 K4 R2 R3", "first-tile")


def test_taking_from_the_row_does_not_rebuild_the_wall():
    state = empty_wall("K4 R7 Y9")
    state, events = play(state, (0, "take"))
    assert ev.REBUILT not in kinds(events)
    assert state.wall == [] and state.rebuilds == 0
    assert [str(t) for t in state.discards] == ["K4", "R7"]


def test_with_nothing_to_rebuild_the_game_ends_with_no_winner():
    state = empty_wall("K4")
    state, events = play(state, (0, "draw"))
    assert kinds(events) == [ev.NO_WINNER]
    assert texts(events, NAMES, 1) == ["Nothing is left to draw: the game ends with no winner."]
    assert state.phase == OVER
    assert state.result.winner is None and state.result.reason == "wall"
    refused(state, 1, "draw", "game-over")


def test_the_rebuild_limit_ends_the_game():
    limited = REMI.with_options(max_rebuilds=1)
    state = empty_wall("K4 R7", rules=limited)
    state, events = play(state, (0, "draw"))
    assert ev.REBUILT in kinds(events) and state.rebuilds == 1
    state, _ = play(state, (0, "discard K9"))  # the row is K4 K9 again, the wall empty
    state, events = play(state, (1, "draw"))
    assert kinds(events) == [ev.NO_WINNER]
    assert texts(events, NAMES) == [
        "The wall may not be rebuilt again: the game ends with no winner."
    ]
    assert state.result.winner is None


def test_no_rebuild_at_all_under_a_limit_of_zero():
    state = empty_wall("K4 R7 Y9", rules=REMI.with_options(max_rebuilds=0))
    state, events = play(state, (0, "draw"))
    assert kinds(events) == [ev.NO_WINNER]
    assert [str(t) for t in state.discards] == ["K4", "R7", "Y9"]


def test_without_a_limit_the_wall_is_rebuilt_again_and_again():
    # Both players keep laying tiles on Y5 Y6 Y7 and passing the R7 round the rebuilt wall.
    state = position(
        ["Y8 Y9 K9 K2", "Y4 Y3 B4 B6"],
        melds=[("Y5 Y6 Y7", 0)],
        melded=[0, 1],
        discards="K4 R7",
    )
    for seat, tile in ((0, "Y8"), (1, "Y4"), (0, "Y9"), (1, "Y3")):
        state, events = play(state, (seat, "draw"))
        assert kinds(events)[0] == ev.REBUILT
        assert str(state.racks[seat][-1]) == "R7"
        state, _ = play(state, (seat, f"add 0 {tile}"), (seat, "discard R7"))
    assert state.rebuilds == 4
    assert state.phase != OVER
    assert state.melds[0].meld.notation() == "Y3 Y4 Y5 Y6 Y7 Y8 Y9"
