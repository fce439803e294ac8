"""Every code Remi can say has a sentence: each refusal code the engine (or the game page's
form) can raise, each meld fault and each event kind has an entry in Remi's presentation, and
no entry is left over.  A new code without a sentence fails here, not in front of a player."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.engine import InvalidAction
from games.engine.remi import events, parse_action
from games.engine.remi.events import Event
from games.presenters.remi.refusals import ILLEGAL, MALFORMED, MELD_FAULTS, message_for
from games.presenters.remi.text import EVENT_LINES, event_line

ROOT = Path(__file__).resolve().parents[2]
# Where Remi's refusals are raised: its engine, the shared pieces it uses, its form.
SOURCES = [
    *sorted((ROOT / "games" / "engine" / "remi").glob("*.py")),
    ROOT / "games" / "engine" / "core" / "errors.py",
    ROOT / "games" / "engine" / "tiles.py",
    ROOT / "games" / "presenters" / "remi" / "forms.py",
]
RAISERS = {"IllegalAction": "illegal", "InvalidAction": "malformed", "InvalidMeld": "meld"}
NAMES = ["Ana", "Bogdan", "Cristi"]


def codes_in_source() -> dict[str, set[str]]:
    """The codes written in the sources, by kind: the first argument of each refusal, the
    codes of ``_PHASE_CODES``, ``NotYourTurn``'s, and the ``{"code": ...}`` of a fault."""
    found: dict[str, set[str]] = {"illegal": set(), "malformed": set(), "meld": set()}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name == "NotYourTurn":
                    found["illegal"].add("not-your-turn")
                first = node.args[0] if node.args else None
                if name in RAISERS and isinstance(first, ast.Constant):
                    found[RAISERS[name]].add(first.value)
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_PHASE_CODES" for t in node.targets
            ):
                assert isinstance(node.value, ast.Dict)
                found["illegal"] |= {v.value for v in node.value.values}  # type: ignore[attr-defined]
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    # (core's ``as_data`` builds {"code": self.code, ...}: not a literal code)
                    literal = isinstance(value, ast.Constant)
                    if isinstance(key, ast.Constant) and key.value == "code" and literal:
                        found["meld"].add(value.value)
    return found


def test_the_source_scan_finds_the_codes():
    found = codes_in_source()
    assert {"first-meld-too-low", "must-draw", "not-your-turn"} <= found["illegal"]
    assert {"not-a-tile", "not-a-number", "select-discard"} <= found["malformed"]
    assert {"run-gaps", "freed-joly-alone"} <= found["meld"]


@pytest.mark.parametrize(
    ("kind", "catalogue"),
    [("illegal", ILLEGAL), ("malformed", MALFORMED), ("meld", MELD_FAULTS)],
)
def test_every_code_in_the_source_has_a_sentence_and_every_sentence_a_code(kind, catalogue):
    assert codes_in_source()[kind] == set(catalogue)


def test_the_documented_refusal_codes_are_the_catalogues():
    text = (ROOT / "docs" / "rules.md").read_text()
    section = text.split("## Refusal codes", 1)[1].split("Malformed")[0]
    assert set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", section)) == set(ILLEGAL)


# Parameters of every name any sentence uses, so each one can be rendered.
EVERY_PARAM = {
    "tiles": ["R5", "R6"],
    "tile": "R5",
    "word": "x",
    "verb": "fly",
    "wanted": "meld",
    "least": 1,
    "most": 4,
    "seat": "9",
    "action": "add",
    "meld": 3,
    "position": 2,
    "option": "max_rebuilds",
    "options": ["colour"],
    "text": "Q9",
    "number": 5,
    "label": "high",
    "points": 25,
    "needed": 50,
    "turn": 1,
    "other": 1,
    "jolys": 1,
    "given": 2,
    "size": 2,
    "colour": "R",
    "numbered": 1,
    "fault": {"code": "set-colours"},
}


@pytest.mark.parametrize(
    ("code", "sentence"),
    [*ILLEGAL.items(), *MALFORMED.items(), *MELD_FAULTS.items()],
    ids=[*ILLEGAL, *(f"malformed-{c}" for c in MALFORMED), *(f"meld-{c}" for c in MELD_FAULTS)],
)
def test_every_sentence_fills_its_placeholders(code, sentence):
    line = sentence(EVERY_PARAM, NAMES)
    assert len(line) > 10 and "%(" not in line and code not in line, line


def test_a_sentence_names_the_seat_the_refusal_gives_by_number():
    assert message_for_code(ILLEGAL, "not-your-turn", turn=1) == "It is Bogdan's turn."
    assert message_for_code(ILLEGAL, "no-offer", other=2) == "Cristi has no doubla on offer."
    assert message_for_code(ILLEGAL, "no-offer") == "Offer a doubla of your own first."


def message_for_code(catalogue, code, **params):
    return catalogue[code](params, NAMES)


@pytest.mark.parametrize(
    ("notation", "code", "sentence"),
    [
        ("", "empty", "Empty action."),
        ("fly", "unknown-verb", "Unknown action 'fly'."),
        ("discard R5 R6", "discard-one", "Discard exactly one tile: 'discard R5'."),
        (
            "add x R4",
            "not-a-number",
            "Expected a meld number (a number in digits 0-9), got 'x'.",
        ),
        (
            "discard Q9",
            "not-a-tile",
            "'Q9' is not a tile: write a colour (R, Y, B, K) and a number 1-13, or J",
        ),
        ("draw now", "takes-nothing", "'draw' takes nothing after it."),
        ("doubla R5 middle", "doubla-label-form", "A doubla is announced as 'high' or 'low'."),
    ],
)
def test_malformed_notation_is_a_code_the_page_words_as_before(notation, code, sentence):
    with pytest.raises(InvalidAction) as refusal:
        parse_action(notation)
    assert refusal.value.code == code
    assert message_for(refusal.value) == sentence


def test_every_kind_of_event_has_a_line():
    kinds = {v for k, v in vars(events).items() if k.isupper() and isinstance(v, str)}
    assert len(kinds) == 20
    assert kinds == set(EVENT_LINES)
    for kind in kinds:
        event = Event(kind, 0, tiles=("R5",), count=2, other=1, label="high", secret=("K9",))
        for viewer in (0, 1, None):
            line = event_line(event, NAMES, viewer)
            assert line != kind and "%(" not in line
            assert line[0].isupper() and line[-1] in ".!", line
            if viewer != 0:
                assert "K9" not in line  # the secret part is the acting seat's alone


def test_a_stored_event_renders_as_the_event_does():
    # Action.events holds Event.to_dict() output: old games keep reading the same.
    stored = {"kind": "drew", "seat": 1, "secret": ["B2"]}
    assert event_line(stored, NAMES, 1) == "You drew B2."
    assert event_line(stored, NAMES, 0) == "Bogdan drew a tile."
