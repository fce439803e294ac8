"""Refusals: every documented ``IllegalAction.code`` from a concrete position, each with
JSON-ready parameters, a readable sentence in the presentation and the state left exactly as
it was; NotYourTurn for out-of-turn actions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine import IllegalAction, NotYourTurn
from games.engine.remi import PRESETS, REMI, apply
from games.engine.remi.scenario import position
from games.engine.remi.state import OPEN, PLAY, PRELUDE
from games.presenters.remi.refusals import message_for

from .helpers import play, refused

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def prelude(racks=("R5 R5 K9", "Y9 Y9 K13", "B2 B3"), **kw):
    state = position(list(racks), phase=PRELUDE, acted=False, **kw)
    state.ready = [False] * state.players
    return state


def after(state, *moves):
    return play(state, *moves)[0]


def melded(tiles="R8 K9 K2", **kw):
    """Ana (melded earlier) to play; meld 0 is Bogdan's R5 R6 R7, meld 1 his K7 B7 J."""
    kw.setdefault("melds", [("R5 R6 R7", 1), ("K7 B7 J", 1)])
    kw.setdefault("melded", [0, 1])
    kw.setdefault("discards", "K4 B9 Y12")
    return position([tiles, "Y4 Y8 B11"], **kw)


def fresh(tiles="R9 R10 R11 R12 R8 K2 B2 Y2 K9", **kw):
    """Ana has never melded."""
    kw.setdefault("melded", [1])
    return melded(tiles, **kw)


def finished():
    return after(melded("K9", phase=PLAY), (0, "discard K9"))


CASES = [
    # (code, position, seat, action)
    ("not-your-turn", lambda: melded(), 1, "draw"),
    ("prelude", lambda: prelude(), 0, "draw"),
    ("must-open", lambda: melded(phase=OPEN, discards=""), 0, "draw"),
    ("must-draw", lambda: melded(), 0, "discard K9"),
    ("already-drew", lambda: melded(phase=PLAY), 0, "draw"),
    ("game-over", finished, 1, "draw"),
    ("not-on-rack", lambda: melded(phase=PLAY), 0, "discard Y13"),
    ("keep-a-discard", lambda: melded("R8 R9", phase=PLAY), 0, "add 0 R8 R9"),
    ("invalid-meld", lambda: melded("R8 R9 R11 K2", phase=PLAY), 0, "meld R8 R9 R11"),
    ("first-meld-too-low", lambda: fresh(phase=PLAY), 0, "meld R9 R10 R11 | K2 B2 Y2"),
    ("first-meld-needs-run", lambda: fresh("K1 B1 Y1 R1 K9", phase=PLAY), 0, "meld K1 B1 Y1 R1"),
    (
        "use-discard",
        lambda: after(fresh(rules=PRESETS["remi-open-discard"]), (0, "take")),
        0,
        "discard K9",
    ),
    ("not-melded-yet", lambda: fresh(), 0, "take"),
    (
        "first-meld-turn",
        lambda: after(fresh(phase=PLAY), (0, "meld R9 R10 R11 R12 | K2 B2 Y2")),
        0,
        "add 0 R8",
    ),
    ("cannot-add", lambda: melded(phase=PLAY), 0, "add 0 K9"),
    ("cannot-swap", lambda: melded("R7 K8 Y8 K2", phase=PLAY), 0, "swap 0 R7 into J K8 Y8"),
    ("first-tile", lambda: melded(discards="K4"), 0, "take"),
    ("row-locked", lambda: melded("R8 K9"), 0, "take"),
    ("exposed-gone", lambda: melded(exposed=None), 0, "exposed"),
    (
        "must-go-out",
        lambda: after(melded("R5 R6 K9 K2", exposed="R7"), (0, "exposed")),
        0,
        "discard K9",
    ),
    ("nothing-to-undo", lambda: melded(phase=PLAY), 0, "undo"),
    ("doubla-off", lambda: prelude(rules=REMI.with_options(doubla=False)), 0, "doubla R5"),
    ("prelude-over", lambda: melded("R5 R5 K9"), 0, "doubla R5"),
    ("doubla-made", lambda: after(prelude(), (0, "doubla R5")), 0, "doubla R5"),
    ("doubla-joly", lambda: prelude(("J J K9", "Y9 Y9")), 0, "doubla J"),
    ("no-pair", lambda: prelude(), 0, "doubla K9"),
    ("doubla-label", lambda: prelude(), 0, "doubla R5 high"),
    ("no-offer", lambda: after(prelude(), (0, "doubla R5")), 0, "exchange 2"),
    ("already-ready", lambda: after(prelude(), (0, "ready")), 0, "ready"),
    ("already-declared", lambda: after(prelude(), (1, "declare")), 1, "declare"),
    ("declare-too-late", lambda: melded("K13 K9 K2"), 0, "declare"),
    ("no-twin", lambda: prelude(), 0, "declare"),
]


@pytest.mark.parametrize(("code", "build", "seat", "action"), CASES, ids=[c[0] for c in CASES])
def test_a_refused_action_changes_nothing_and_says_why(code, build, seat, action):
    refused(build(), seat, action, code)


def test_every_documented_refusal_code_has_a_case():
    text = DOCS.read_text()
    section = text.split("## Refusal codes", 1)[1]
    documented = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", section.split("Malformed")[0]))
    documented.discard("IllegalAction")
    assert len(documented) >= 30
    assert documented == {c[0] for c in CASES}


OUT_OF_TURN = [
    (lambda: melded(phase=OPEN, discards="", acted=False), 1, "discard Y4"),
    (lambda: melded(), 1, "draw"),
    (lambda: melded(), 1, "take"),
    (lambda: melded(), 1, "pick 1 B9 B11 Y8"),
    (lambda: melded(), 1, "exposed"),
    (lambda: melded(phase=PLAY), 1, "discard Y4"),
    (lambda: melded(phase=PLAY), 1, "meld Y4 Y8 B11"),
    (lambda: melded(phase=PLAY), 1, "add 0 Y4"),
    (lambda: melded(phase=PLAY), 1, "swap 1 Y7 R7 into J Y8 Y9"),
    (lambda: melded(phase=PLAY), 1, "undo"),
]


@pytest.mark.parametrize(("build", "seat", "action"), OUT_OF_TURN)
def test_out_of_turn_actions_raise_not_your_turn(build, seat, action):
    state = build()
    before = state.to_dict()
    with pytest.raises(NotYourTurn) as info:
        apply(state, seat, action)
    assert isinstance(info.value, IllegalAction)
    assert info.value.code == "not-your-turn"
    assert info.value.params == {"turn": 0}
    assert message_for(info.value, state.seats) == "It is Ana's turn."
    assert state.to_dict() == before


def test_declaring_and_doublas_are_not_turn_actions():
    # Anyone may declare or deal in doublas whoever's turn it is (no NotYourTurn).
    state = prelude()
    state, _ = play(state, (1, "declare"), (1, "doubla Y9 low"), (0, "doubla R5 low"))
    assert state.declared[1]
