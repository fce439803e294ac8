"""The action notation: every kind of action round-trips through ``str`` and ``parse_action``,
malformed text raises InvalidAction, and event lines read well."""

from __future__ import annotations

import pytest

from games.engine import InvalidAction
from games.engine.remi import (
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
    apply,
    parse_action,
    parse_tiles,
)
from games.engine.remi.events import Event
from games.engine.remi.scenario import position
from games.engine.remi.state import PLAY
from games.presenters.remi.text import event_line

from .helpers import play, texts

R5 = parse_tiles("R5")[0]

# (canonical text, the action it means)
EXAMPLES = [
    ("draw", Draw()),
    ("take", TakeDiscard()),
    ("pick 5 B7 B5 B6", Pick(5, Group(tuple(parse_tiles("B7 B5 B6"))))),
    ("pick 2 B7 B5 J", Pick(2, Group(tuple(parse_tiles("B7 B5 J"))))),
    ("exposed", TakeExposed()),
    ("meld R1 R2 R3", MeldAction((Group(tuple(parse_tiles("R1 R2 R3"))),))),
    (
        "meld R1 R2 R3 | K5 B5 J",
        MeldAction((Group(tuple(parse_tiles("R1 R2 R3"))), Group(tuple(parse_tiles("K5 B5 J"))))),
    ),
    (
        "meld R2 R3 J=R4",
        MeldAction((Group(tuple(parse_tiles("R2 R3 J")), tuple(parse_tiles("R4"))),)),
    ),
    (
        "meld Y3 J=Y4 Y5 J Y7 Y8",
        MeldAction((Group(tuple(parse_tiles("Y3 J Y5 J Y7 Y8")), (parse_tiles("Y4")[0], None)),)),
    ),
    ("add 3 R4", AddToMeld(3, Group((parse_tiles("R4")[0],)))),
    ("add 3 R4 J=R5", AddToMeld(3, Group(tuple(parse_tiles("R4 J")), (R5,)))),
    (
        "swap 2 B8 into J K8 Y8",
        SwapJoly(2, tuple(parse_tiles("B8")), Group(tuple(parse_tiles("J K8 Y8")))),
    ),
    (
        "swap 0 R7 Y7 into J=K5 K3 K4",
        SwapJoly(
            0,
            tuple(parse_tiles("R7 Y7")),
            Group(tuple(parse_tiles("J K3 K4")), tuple(parse_tiles("K5"))),
        ),
    ),
    ("discard R5", Discard(R5)),
    ("discard J", Discard(parse_tiles("J")[0])),
    ("declare", Declare()),
    ("doubla R5", OfferDoubla(R5)),
    ("doubla R5 low", OfferDoubla(R5, "low")),
    ("doubla K9 high", OfferDoubla(parse_tiles("K9")[0], "high")),
    ("exchange 2", Exchange(2)),
    ("ready", Ready()),
    ("undo", Undo()),
]


@pytest.mark.parametrize(("text", "action"), EXAMPLES)
def test_every_action_round_trips(text, action):
    assert parse_action(text) == action
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_the_examples_cover_every_kind_of_action():
    assert {type(a) for _, a in EXAMPLES} == {
        Draw,
        TakeDiscard,
        Pick,
        TakeExposed,
        MeldAction,
        AddToMeld,
        SwapJoly,
        Discard,
        Declare,
        OfferDoubla,
        Exchange,
        Ready,
        Undo,
    }


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("  DRAW ", "draw"),
        ("discard r5", "discard R5"),
        ("meld r1 r2 r3|k5 b5 j", "meld R1 R2 R3 | K5 B5 J"),
        ("Swap 2 b8 INTO j k8 y8", "swap 2 B8 into J K8 Y8"),
        ("doubla r5 LOW", "doubla R5 low"),
        ("add 3 r4 j=r5", "add 3 R4 J=R5"),
    ],
)
def test_loose_spelling_reads_as_the_canonical_action(loose, canonical):
    assert str(parse_action(loose)) == canonical


MALFORMED = [
    "",
    "   ",
    "fly",
    "draw now",
    "take R5",
    "discard",
    "discard R5 R6",
    "discard R14",
    "discard G5",
    "meld",
    "meld R1 R2 | ",
    "meld R5=R6 R7 R8",
    "meld R1 R2 J=X9",
    "add",
    "add 3",
    "add x R4",
    "add -1 R4",
    "pick 5 B7 B5",
    "pick 5 B7 B5 B6 B8",
    "pick five B7 B5 B6",
    "swap 2 B8",
    "swap 2 B8 J K8 Y8",
    "swap 2 into J K8 Y8",
    "swap x B8 into J K8 Y8",
    "doubla",
    "doubla R5 medium",
    "doubla R5 high low",
    "doubla Q5",
    "exchange",
    "exchange one",
    "exchange 1 2",
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_notation_raises_invalid_action(text):
    with pytest.raises(InvalidAction):
        parse_action(text)


@pytest.mark.parametrize(
    "text", ["fly", "discard R14", "add 7 R4", "swap 9 B5 into J B6 K9", "meld R4 R5=R6"]
)
def test_malformed_actions_leave_the_state_untouched(text):
    state = position(["R4 B5 B6 K9", "Y4 Y8"], melded=[0], discards="K4 B7", phase=PLAY)
    before = state.to_dict()
    with pytest.raises(InvalidAction):
        apply(state, 0, text)
    assert state.to_dict() == before


def test_a_seat_that_does_not_exist_is_malformed():
    state = position(["R4 K9", "Y4 Y8"])
    for seat in (-1, 2, True):
        with pytest.raises(InvalidAction):
            apply(state, seat, "draw")


# --- events read well ---------------------------------------------------------------------

NAMES = ["Ana", "Bogdan", "Cristi"]


def test_the_log_reads_well_for_everyone_and_keeps_the_drawn_tile_secret():
    state = position(
        ["B5 B6 K8 K12 R9 R10", "Y4 Y8 B11", "K6 R9 B13"],
        melds=[("R6 R7 R8", 1)],
        melded=[0, 1],
        discards="K2 Y9 B7 R3 K11 Y1",
        wall="B2",
    )
    state, events = play(
        state,
        (0, "pick 2 B7 B5 B6"),
        (0, "add 0 R9 R10"),
        (0, "discard Y1"),
        (1, "draw"),
    )
    assert texts(events, NAMES, 2) == [
        "Ana took B7 and 3 more tiles from the discard row.",
        "Ana melded B5 B6 B7.",
        "Ana added R9 R10 to meld 0.",
        "Ana discarded Y1.",
        "Bogdan drew a tile.",
    ]
    assert texts(events, NAMES, 0)[0] == "You took B7 and 3 more tiles from the discard row."
    drew = events[-1]
    assert event_line(drew, NAMES, 1) == "You drew B2."
    assert "B2" not in event_line(drew, NAMES, 0)
    assert "secret" not in drew.to_dict(0) and "secret" not in drew.to_dict(None)
    assert drew.to_dict(1)["secret"] == ["B2"]


def test_events_survive_a_round_trip_through_json_data():
    event = Event("picked", 0, tiles=("B7",), count=3)
    assert Event.from_dict(event.to_dict()) == event
    assert event_line(event, NAMES) == "Ana took B7 and 3 more tiles from the discard row."
    assert event_line(Event("picked", 0, tiles=("B7",), count=1), NAMES) == (
        "Ana took B7 and 1 more tile from the discard row."
    )
    assert event_line(Event("few-tiles", 2, count=1), NAMES) == "Cristi has 1 tile left!"


def test_a_first_meld_of_several_melds_reads_meld_by_meld():
    # Engine fix: the melds used to run together ("R9 R10 R11 R12 Y2 B2 K2 (50 points).").
    state = position(["R9 R10 R11 R12 K2 B2 Y2 K7", "Y4 Y8"], phase=PLAY)
    _, events = play(state, (0, "meld R9 R10 R11 R12 | K2 B2 Y2"))
    assert texts(events, NAMES, 1)[0] == "Ana melded R9 R10 R11 R12 and Y2 B2 K2 (50 points)."
    three = Event("melded", 1, tiles=("R1 R2 R3", "K5 B5 Y5", "J=Y10 Y11 Y12"))
    assert event_line(three, NAMES, 0) == "Bogdan melded R1 R2 R3, K5 B5 Y5 and J=Y10 Y11 Y12."
